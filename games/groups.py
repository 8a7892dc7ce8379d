"""Channel-layer group names."""


def everyone(game_id: str) -> str:
    """Every connection that has said hello to the game; consumers filter by role."""
    return f"game.{game_id}"
