"""Where a game's board and a player's sweep come from.

stored.py  the board and sweeps derived from the stored game
log.py     its move log read as the engine's values
search.py  the no-guess search, made away from the event loop
"""
