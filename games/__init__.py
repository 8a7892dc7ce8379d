"""The game server: a room per capability, each importing only the rooms below it.

The rooms, from the top down (docs/architecture.md draws the layers; import-linter keeps them):

    urls.py        /api/ routes to each room's views, admin.py moderation, management/ commands
    records/       confirmed records with their signed kits, and the records they beat
    worker/        the worker's background passes, one list, one call that starts them
    tournaments/ matchmaking/ fairplay/ daily/ ratings/ bots/ presence/ analysis/ export/ tv/
    scores/ accounts/ history/ social/ matches/
    proof/
                   one capability each: its models, services (writes), selectors (reads), views
    play/          the WebSocket edge of a game: consumers, frames, welcome, spectators
    races/         a race from creation to results: lifecycle, clock, deciding, finishing
    moves/         the one move pipeline: a pure step, one conditional write, its events
    boards/        where a stored game's board and sweeps come from
    events/        events, their groups and their delivery (outbox)
    edge/          HTTP and WebSocket helpers: JSON answers, validation, frames, limits
    limits/ ops/ runtime/
                   limits across workers, operations (health, metrics), what every worker runs on
    models.py      Game, Player, Move (append-only) and the other shared rows; migrations/
    errors.py      ServiceError, the one application error with a protocol code
    names.py       the names people play under, and when two are one
    timefmt.py     times on the wire
    apps.py        the Django app
    engine/        pure Python, standard library only: boards, sweeps, moves, rules, solver
"""
