"""Arena tournaments (docs/protocol.md 7): a fixed time, race after race, points add up."""
