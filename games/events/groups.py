"""Channel-layer group names."""


def everyone(game_id: str) -> str:
    """Every connection that has said hello to the game; consumers filter by role."""
    return f"game.{game_id}"


def game_of(group: str) -> str:
    """The game id of a group named by everyone()."""
    return group.removeprefix("game.")
