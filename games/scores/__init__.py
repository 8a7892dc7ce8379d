"""Scores of ranked games and what is read from them.

records.py       scores and the personal bests (and sums of bests) the all-time boards read
choices.py       what a board may be asked for: its period and its style (all, NF)
leaderboards.py  leaderboards and a player's page
sums.py          the sum of bests boards (docs/protocol.md 9.2)
history.py       a player's history: games page by page, win rate, trend
views.py         the API of leaderboards and player pages
"""
