"""Limits that hold across every worker.

address.py       who a client is: its address as the trusted proxy reports it
buckets.py       how fast it may go: token buckets in Redis (or in the process)
sockets.py       how many sockets it may hold open at once, on leases
locks.py         counts per address that two workers must take turns at (PostgreSQL)
redis_client.py  the limits' keys and clients, on the Redis shard of what they count
"""
