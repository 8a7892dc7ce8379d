"""The move pipeline: a pure step, one conditional write, and the events it commits.

    state.py    frozen values a move is built on (a running game's facts, a player's state)
    step.py     the rules and the engine: (game, player, move, now) -> MoveResult, no I/O
    store.py    the one write: conditional on the row the step was built on, finishing inside
    repeats.py  the answer to a move resent with an idempotency key already used
    services.py move_apply: read, step, write, retry on a lost row; the entry point
    on_loop.py  move_play, for async code: the usual move on the event loop, the rest to
                move_apply in a database thread

The same code runs on PostgreSQL and SQLite, so the default test suite runs production's path.
"""
