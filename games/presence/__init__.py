"""Who is connected, across every worker: leases that a killed worker's connections outlive
only briefly, and the rules that act on a racer's absence (docs/protocol.md 2.1).

    models.py     one row per open connection (a lease), one per race player
    services.py   writes: connections open and close, leases renewed, the sweep of absences
    selectors.py  reads: what the public state says of a racer, how long it may be away
    apps.py       the Django app
"""
