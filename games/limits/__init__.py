"""Limits that hold across every worker: who a client is (address.py), how fast it may go
(buckets.py) and how many sockets it may hold open at once (sockets.py)."""
