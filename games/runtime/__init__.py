"""What every worker runs on, below every room.

db.py          calling the sync services from async code
periodic.py    running background passes on the event loop (which ones: games/worker)
redis_shards.py  the Redis client of a key's shard, found again after a Sentinel failover
replica.py     reads that may lag go to the standby; a client reads its own writes
to_the_end.py  work that runs to its end once begun
worker.py      this worker's identity, written on the leases it holds
"""
