"""Who is here and whom an account follows (issue 35.4).

apps.py       the app (its models: follows and the lobby's visitors)
models.py     Follow (an account follows another) and Visitor (a lobby seen lately)
services.py   writes: a visit, a follow, an unfollow
selectors.py  reads: how many are online and racing now, the accounts one follows and where
views.py      the API: /api/here/, /api/me/following/, /api/players/<name>/follow/
"""
