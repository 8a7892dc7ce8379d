"""Ratings of accounts per preset and kind of board, from rated races (docs/protocol.md 5), and
the seasons and ladders built on them (docs/protocol.md 8).

    models.py           ratings, the change each rated race made, seasons and their ladders
    services.py         writes: rating a rated race, in the transaction that decides it
    selectors.py        reads: a preset's rating list, an account's ratings and history
    scale.py            the shown number: 1000 + 40 x (mu - 3 sigma)
    season_calendar.py  which season a moment falls in (pure)
    seasons.py          the current season's row and its soft reset, once
    leagues.py          a league for a band of the shown rating
    buckets.py          how many accounts stand at each rating, so a place is a sum
    ladder.py           reads of seasons: the list, a ladder, an account's place and seasons
    refunds.py          a marked cheater's ratings frozen and what it took given back
    views.py            the API of ratings and seasons
    apps.py             the Django app
"""
