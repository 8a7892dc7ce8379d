"""What every worker runs on: calling the sync database from async code (db.py), background
passes on the event loop (periodic.py) and this worker's identity (worker.py)."""
