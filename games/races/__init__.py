"""Races and games from creation to results.

spec.py         what a game is made from (GameSpec), checked from a POST body
lifecycle.py    use cases: create, join, resume, ready, leave, resign, rematch; bot seats
seating.py      the lobby's rules, written once: seats, names, ready, the countdown
lobbies.py      open lobbies per address, and closing the lobbies nobody is in
vacancy.py      when a lobby is empty for good
join_undo.py    taking back a join whose welcome never reached its client
starting.py     races a pairing makes, many at once (quick match, arenas)
deadlines.py    every deadline of a race, in one place (pure reads)
clock.py        the clock's tick: starts, time limits, the ready timeout
timers.py       the worker's timers and reaper that make the clock tick on time
deciding.py     the moment a race's ranking can no longer change
aborting.py     whether a decided race moves ratings and points at all (one click and a leave: no)
finishing.py    finishing a player and a game: scores, ratings, game_over
results.py      the final standings, decided once
extensions.py   what rooms above allow in a race (berserk) without this room importing them
serializers.py  the public view, built field by field
selectors.py    reads: a game, its public state, the lobby and live lists, the move log
views.py        the HTTP API of games
"""
