"""Ratings of accounts per preset and kind of board, from rated races (docs/protocol.md 5)."""
