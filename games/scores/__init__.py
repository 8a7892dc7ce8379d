"""Scores of ranked games (records.py), the leaderboards and player pages read from them
(leaderboards.py), a player's history (history.py), and their HTTP API (views.py)."""
