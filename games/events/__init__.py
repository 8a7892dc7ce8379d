"""Events a use case commits and their delivery after the commit.

event.py        events and who receives them
groups.py       the channel-layer group names
delivery.py     publishing committed events once per game, never lost (the outbox)
local_layer.py  the Redis pub/sub layer that keeps a game's fan-out in its worker
"""
