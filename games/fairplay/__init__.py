"""Fair play (docs/protocol.md 6): every game that counts is screened when it ends; a game with a
signal waits off the leaderboards until a moderator decides.

    screening.py  the screen of one player's game: pure, the standard library and the engine
    counting.py   what a finished game counted for, per player
    models.py     what the screen found, and where its review stands; marks and reports
    services.py   writes: screening games as they end, moderators' decisions, reports
    selectors.py  reads: a player's own review, held scores, marks, the review queue
    admin.py      the moderators' review queue in the admin (templates/ its pages)
    views.py      POST /api/reports/
    apps.py       the Django app, which registers the hooks of races
"""
