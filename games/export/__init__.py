"""Finished games exported as community replay files (EVF), written with the standard library.

evf.py        EVF v4, the replay format of Metasweeper, written from scratch
replay.py     a move log as the mouse events of an EVF replay (no Django)
selectors.py  one player's finished game as a replay file
views.py      GET /api/games/<id>/export/
"""
