"""Channel-layer group names."""

GAME_GROUP_PREFIX = "game."  # the layer keeps these groups' sends in the worker (local_layer)


def everyone(game_id: str) -> str:
    """Every connection that has said hello to the game; consumers filter by role."""
    return f"{GAME_GROUP_PREFIX}{game_id}"


def game_of(group: str) -> str:
    """The game id of a group named by everyone()."""
    return group.removeprefix(GAME_GROUP_PREFIX)
