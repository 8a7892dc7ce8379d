"""Scores of ranked games and what is read from them.

records.py       scores and the personal bests the all-time leaderboards read
leaderboards.py  leaderboards and a player's page
history.py       a player's history: games page by page, win rate, trend
views.py         the API of leaderboards and player pages
"""
