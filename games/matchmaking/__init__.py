"""Quick match (docs/protocol.md 5): a queue every worker shares, paired by rating."""
