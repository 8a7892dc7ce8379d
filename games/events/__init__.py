"""Events a use case commits, the channel-layer groups they go to (groups.py), and their
delivery after the commit: published once per game, never lost to a failed publish (the outbox
in delivery.py)."""
