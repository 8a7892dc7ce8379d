"""The WebSocket edge: consumers speak the protocol (docs/protocol.md 4) and call services.

    consumers.py      one connection to one game: validate a frame, call one service, deliver
    welcome.py        what a hello is shown (its own board, or every board once it is over)
    hello_undo.py     taking back a join whose hello failed before its welcome went out
    frame_views.py    what a connection of a role may see of an event
    frame_texts.py    an event's frames as text, written once per worker
    watching.py       a worker's spectators of a game: the common ground, batched frames
    spectating.py     the spectator count
    spectator_hellos.py  spectators' hellos a few at a time (arrivals never starve racers)
    reactions.py      a racer's emote to everyone in its race, one every 2 s

No rule of the game lives in this package.
"""
