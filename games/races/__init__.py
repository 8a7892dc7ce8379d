"""Races and games from creation to results.

lifecycle.py   create, join, resume, ready, leave, resign, rematch; bot seats; absences
clock.py       every deadline (countdown, time limit, ready timeout) and the clock's tick
timers.py      the worker's timers and reaper that make the clock tick on time
finishing.py   finishing a player and a game: scores, ratings, game_over
results.py     the final standings, computed once per finish
serializers.py the public view, built field by field
selectors.py   reads: a game, its public state, the lobby and live lists, the move log
views.py       the HTTP API of games
"""
