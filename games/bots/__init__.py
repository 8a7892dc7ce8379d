"""Bots, so nobody waits alone: players that see only their own sweep and play by the solver."""
