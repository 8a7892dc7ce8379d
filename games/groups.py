"""Channel-layer group names: who receives which event."""


def everyone(game_id: str) -> str:
    """Every connection that has said hello to the game."""
    return f"game.{game_id}"


def spectators(game_id: str) -> str:
    return f"game.{game_id}.spectators"


def racers(game_id: str) -> str:
    """Every player connection of a game (they get counts, never other players' cells)."""
    return f"game.{game_id}.players"


def player(player_id: str) -> str:
    """Every connection of one player (a player may have several tabs)."""
    return f"player.{player_id}"
