from django.urls import re_path

from games.matchmaking.consumers import MatchConsumer
from games.play.consumers import GameConsumer
from games.tournaments.consumers import TournamentConsumer

websocket_urlpatterns = [
    re_path(r"^ws/games/(?P<game_id>[A-Za-z0-9_-]{1,32})/$", GameConsumer.as_asgi()),
    re_path(r"^ws/match/$", MatchConsumer.as_asgi()),
    re_path(
        r"^ws/tournaments/(?P<tournament_id>[A-Za-z0-9_-]{1,32})/$", TournamentConsumer.as_asgi()
    ),
]
