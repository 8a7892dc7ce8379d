"""Who is connected, across every worker: leases that a killed worker's connections outlive
only briefly, and the rules that act on a racer's absence (docs/protocol.md 2.1)."""
