"""Records (docs/protocol.md 9.3): the best confirmed result of each preset, kind of board and
style, each with its signed verification kit (games.proof), and the records it beat.

models.py     a confirmed record and its kit
services.py   writes: a moderator confirms a record candidate
selectors.py  reads: the records and their history, a record's kit
admin.py      the record candidates and the confirmation action, for `games.confirm_record`
views.py      GET /api/records/, GET /api/records/<id>/kit/
apps.py       the Django app
migrations/   its table
"""
