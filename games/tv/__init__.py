"""Minerace TV: the featured race everyone may watch (docs/protocol.md 4, v1.3).

selectors.py   which running race is featured, and the race a player is in now
views.py       GET /api/tv/
"""
