"""The edge's shared parts, used by views and consumers in each room; no rule of the game
lives here.

    http.py              the JSON HTTP API: the view decorator, bodies, error answers
    validation.py        validation of client input, one rule per field
    frames.py            parsing client frames and writing server frames
    middleware.py        /api/ stays JSON: unexpected failures, JSON-only changes
    security_headers.py  what a page may do: the Content-Security-Policy and friends
    socket_limits.py     the limits of the WebSocket edge: sockets, hellos, moves
    socket_turns.py      a socket's frames and its close run to their end
    receive_stamp.py     each frame stamped when read, before any queue (fair play's timing)
    unavailable.py       a database or Redis away: 503 and Retry-After, internal and 1013
    socket_backlog.py    what a socket still holds to send (a slow spectator is skipped)
    prebuilt_frames.py   one text frame built once, written as-is to many sockets
"""
