"""Quick match (docs/protocol.md 5): a queue every worker shares, paired by rating.

consumers.py  the socket /ws/match/: seek, cancel, matched
models.py     the queue: one row per seeking connection, on a lease
pairing.py    who races whom (pure)
services.py   writes: seek, cancel, renew, and the pass that turns seekers into races
apps.py       the Django app
"""
