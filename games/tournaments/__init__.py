"""Arena tournaments (docs/protocol.md 7): a fixed time, race after race, points add up.

models.py           tournaments, entries, the races they made, who is waiting now
services.py         writes: create, join, withdraw, waiting connections, pairing, a race's points
selectors.py        reads: summaries, lists, a tournament's state and standings
scoring.py          a race's points from its ranking alone (pure)
pairing.py          who races whom (pure)
schedule.py         the arenas the server schedules by itself
consumers.py        the socket /ws/tournaments/<id>/
views.py            the API of tournaments
apps.py             the Django app, which registers the deciding hook
"""
