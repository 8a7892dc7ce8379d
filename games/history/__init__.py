"""An account's every finished game, each labelled with what it counted for (issue 35.2).

kinds.py      what kind of game it was and what it counted for: pure
selectors.py  an account's finished games, filtered, page by page, with their labels
views.py      the API: /api/players/<name>/games/ with `kind` (without it: ranked games only)
"""
