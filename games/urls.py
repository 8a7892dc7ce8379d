"""The JSON API under /api/, each path served by its room's views; anything unrouted there is
a JSON 404, never HTML."""

from django.urls import re_path

from games.accounts import views as accounts
from games.analysis import views as analysis
from games.daily import views as daily
from games.edge import http
from games.export import views as export
from games.fairplay import views as fairplay
from games.history import views as history
from games.matches import views as matches
from games.proof import views as proof
from games.races import views as races
from games.ratings import views as ratings
from games.records import views as records
from games.scores import views as scores
from games.social import views as social
from games.tournaments import views as tournaments
from games.tv import views as tv

GAME_ID = r"(?P<game_id>[A-Za-z0-9_-]{1,32})"
MATCH_ID = r"(?P<match_id>[A-Za-z0-9_-]{1,32})"
TOURNAMENT_ID = r"(?P<tournament_id>[A-Za-z0-9_-]{1,32})"

urlpatterns = [
    re_path(r"^games/$", races.games),
    re_path(rf"^games/{GAME_ID}/$", races.game_detail),
    re_path(rf"^games/{GAME_ID}/moves/$", races.game_moves),
    re_path(rf"^games/{GAME_ID}/analysis/$", analysis.game_analysis),
    re_path(rf"^games/{GAME_ID}/export/$", export.game_export_file),
    re_path(r"^leaderboards/sum/$", scores.sum_board),  # before the presets' pattern
    re_path(r"^leaderboards/(?P<preset>[a-z]{1,16})/$", scores.leaderboard),
    re_path(r"^ratings/(?P<preset>[a-z]{1,16})/$", ratings.ratings),
    re_path(r"^seasons/$", ratings.seasons),
    re_path(
        r"^seasons/(?P<season>[a-z0-9-]{1,16})/ladder/(?P<preset>[a-z]{1,16})/$",
        ratings.season_ladder,
    ),
    re_path(r"^accounts/$", accounts.accounts),
    re_path(r"^session/$", accounts.session),
    re_path(r"^me/$", accounts.me),
    re_path(r"^me/bot/$", accounts.me_bot),
    re_path(r"^me/settings/$", accounts.my_settings),
    re_path(r"^me/following/$", social.me_following),
    re_path(r"^here/$", social.here),
    re_path(r"^daily/$", daily.overview),
    re_path(r"^daily/(?P<preset>[a-z]{1,16})/$", daily.run),
    re_path(rf"^daily/runs/{GAME_ID}/$", daily.run_detail),
    re_path(r"^daily/(?P<day>[0-9-]{1,10})/(?P<preset>[a-z]{1,16})/$", daily.board),
    re_path(r"^tournaments/$", tournaments.tournaments),
    re_path(rf"^tournaments/{TOURNAMENT_ID}/$", tournaments.tournament),
    re_path(rf"^tournaments/{TOURNAMENT_ID}/join/$", tournaments.join),
    re_path(rf"^tournaments/{TOURNAMENT_ID}/withdraw/$", tournaments.withdraw),
    re_path(r"^players/(?P<name>.{1,64})/tournaments/$", tournaments.player_tournaments),
    re_path(r"^players/(?P<name>.{1,64})/games/$", history.player_games),
    re_path(r"^players/(?P<name>.{1,64})/follow/$", social.follow),
    re_path(r"^players/(?P<name>.{1,64})/trend/$", scores.player_trend),
    re_path(r"^players/(?P<name>.{1,64})/$", scores.player),
    re_path(r"^reports/$", fairplay.reports),
    re_path(r"^tv/$", tv.tv),
    re_path(r"^records/$", records.records),
    re_path(r"^records/keys/$", proof.keys),
    re_path(r"^records/(?P<record_id>[0-9]{1,18})/kit/$", records.kit),
    re_path(r"^matches/$", matches.matches),
    re_path(rf"^matches/{MATCH_ID}/$", matches.match),
    re_path(rf"^matches/{MATCH_ID}/accept/$", matches.accept),
    re_path(rf"^matches/{MATCH_ID}/decline/$", matches.decline),
    # [\s\S], not ".": a newline in the path is unrouted too, and gets the JSON 404 like the rest.
    re_path(r"^(?P<rest>[\s\S]*)$", http.not_routed),
]
