"""The daily challenge (docs/protocol.md 10.4): one no-guess board per preset per UTC day.

models.py     days, their boards and the runs played on them
services.py   writes: a day's board, a new run
selectors.py  reads: today's boards, a day's leaderboard, the archive
counting.py   which finished games are counted runs, for the screen
views.py      /api/daily/...
apps.py       the Django app
"""
