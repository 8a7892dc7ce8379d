"""Quick match (PROTOCOL.md 5): a queue every worker shares, paired by rating."""
