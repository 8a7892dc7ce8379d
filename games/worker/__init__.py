"""The worker's background passes: each in a file of its own, all in one list, started by one
call when a worker's sockets first connect (docs/architecture.md, "The worker's passes").

passes.py         PASSES, the list, and passes_start(socket), the one call
asgi.py           StartsPasses: the WebSocket routes start their passes (config/routing.py)
reaper.py         ticks races nobody is connected to, closes lobbies nobody is in
outbox_relay.py   publishes again what the channel layer refused
presence.py       renews this worker's leases, settles who is online, drops who is away
socket_leases.py  renews the leases of this worker's open sockets in Redis
seasons.py        turns the season outside any race
bots.py           claims bot seats and drives them through the move service
match.py          renews seekers and pairs the quick-match queue
arena.py          pairs, scores and ends the arenas this worker's connections watch
"""
