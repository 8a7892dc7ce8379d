"""Where boards that take real work are made: the no-guess search, away from the event loop."""
