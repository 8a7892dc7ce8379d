"""Bots, so nobody waits alone: players that see only their own sweep and play by the solver.

brain.py     what a bot does next, from its own knowledge only (pure)
levels.py    the bot levels by pace, and the one a rating calls for
house.py     the bot account each level plays under
models.py    a bot's seat and the lease of the worker that drives it
services.py  the driver's steps, each a short transaction
apps.py      the Django app
"""
