"""The JSON API under /api/; anything unrouted there is a JSON 404, never HTML."""

from django.urls import re_path

from games import api
from games.accounts import views as accounts
from games.daily import views as daily
from games.export import views as export

GAME_ID = r"(?P<game_id>[A-Za-z0-9_-]{1,32})"

urlpatterns = [
    re_path(r"^games/$", api.games),
    re_path(rf"^games/{GAME_ID}/$", api.game_detail),
    re_path(rf"^games/{GAME_ID}/moves/$", api.game_moves),
    re_path(rf"^games/{GAME_ID}/analysis/$", api.game_analysis),
    re_path(rf"^games/{GAME_ID}/export/$", export.game_export_file),
    re_path(r"^leaderboards/(?P<preset>[a-z]{1,16})/$", api.leaderboard),
    re_path(r"^ratings/(?P<preset>[a-z]{1,16})/$", api.ratings),
    re_path(r"^me/settings/$", accounts.my_settings),
    re_path(r"^daily/$", daily.overview),
    re_path(r"^daily/(?P<preset>[a-z]{1,16})/$", daily.run),
    re_path(r"^daily/(?P<day>[0-9-]{1,10})/(?P<preset>[a-z]{1,16})/$", daily.board),
    re_path(r"^players/(?P<name>.{1,64})/games/$", api.player_games),
    re_path(r"^players/(?P<name>.{1,64})/trend/$", api.player_trend),
    re_path(r"^players/(?P<name>.{1,64})/$", api.player),
    # [\s\S], not ".": a newline in the path is unrouted too, and gets the JSON 404 like the rest.
    re_path(r"^(?P<rest>[\s\S]*)$", api.not_routed),
]
