"""Where a game's board and a player's sweep come from: derived from the stored game (stored.py),
its move log read as the engine's values (log.py), and the boards that take real work, the
no-guess search, made away from the event loop (search.py)."""
