"""What the exact solver says about a finished game: forced guesses and fatal mistakes.

review.py     one player's move log against the knowledge it had at each click (pure)
selectors.py  the review of every player of a finished game
views.py      GET /api/games/<id>/analysis/
"""
