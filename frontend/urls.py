from django.contrib.auth import views as auth_views
from django.urls import path, re_path

from frontend import views

GAME_ID = r"(?P<game_id>[A-Za-z0-9_-]{1,32})"

urlpatterns = [
    path("", views.lobby, name="lobby"),
    re_path(rf"^games/{GAME_ID}/$", views.game, name="game"),
    re_path(rf"^games/{GAME_ID}/replay/$", views.replay, name="replay"),
    path("tv/", views.tv, name="tv"),
    path("leaderboards/", views.leaderboards, name="leaderboards"),
    path("ratings/", views.ratings, name="ratings"),
    path("records/", views.records, name="records"),
    path("daily/", views.daily, name="daily"),
    re_path(r"^daily/(?P<day>[0-9]{4}-[0-9]{2}-[0-9]{2})/$", views.daily_day, name="daily_day"),
    re_path(r"^players/(?P<name>.{1,64})/$", views.player, name="player"),
    path("fair-play/", views.fair_play, name="fair_play"),
    path("tournaments/", views.tournaments, name="tournaments"),
    re_path(
        r"^tournaments/(?P<tournament_id>[A-Za-z0-9_-]{1,32})/$",
        views.tournament,
        name="tournament",
    ),
    path("matches/new/", views.match_new, name="match_new"),
    re_path(r"^matches/(?P<match_id>[A-Za-z0-9_-]{1,32})/$", views.match, name="match"),
    path("accounts/signup/", views.signup, name="signup"),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
]
