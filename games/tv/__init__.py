"""Minerace TV: the featured race everyone may watch (docs/protocol.md 4, v1.3).

    apps.py        tells the player pages of a player's running race
    selectors.py   which running race is featured, and the race a player is in now
    views.py       GET /api/tv/

The race is watched by the race page itself; this room only chooses it.
"""
