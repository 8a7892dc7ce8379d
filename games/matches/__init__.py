"""Matches (docs/protocol.md 9.4): two accounts race again and again on fresh boards of one
preset until one has won enough races.

models.py    a match and its races
rules.py     when a match is over and who won it (pure)
services.py  writes: offer, accept, decline, each race made, a race scored, a match settled
selectors.py reads: a match's state, a race's `match` facts
views.py     the API of matches
apps.py      the Django app, which registers the deciding hook and the race state's facts
migrations/  its tables
"""
