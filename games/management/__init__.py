"""Django management commands of the game server (commands/)."""
