"""Ratings of accounts per preset and kind of board, from rated races (PROTOCOL.md 5)."""
