from django.urls import re_path

from games.matchmaking.consumers import MatchConsumer
from games.play.consumers import GameConsumer
from games.tournaments.consumers import TournamentConsumer
from games.worker.asgi import StartsPasses

websocket_urlpatterns = [
    re_path(
        r"^ws/games/(?P<game_id>[A-Za-z0-9_-]{1,32})/$",
        StartsPasses("game", GameConsumer.as_asgi()),
    ),
    # Spectators only: a proxy spreads these over the workers (deploy/nginx/minerace.conf).
    re_path(
        r"^ws/games/(?P<game_id>[A-Za-z0-9_-]{1,32})/watch/$",
        StartsPasses("game", GameConsumer.as_asgi()),
        {"watch_only": True},
    ),
    re_path(r"^ws/match/$", StartsPasses("match", MatchConsumer.as_asgi())),
    re_path(
        r"^ws/tournaments/(?P<tournament_id>[A-Za-z0-9_-]{1,32})/$",
        StartsPasses("tournament", TournamentConsumer.as_asgi()),
    ),
]
