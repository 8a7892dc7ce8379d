from django.urls import path, re_path

from frontend import views

urlpatterns = [
    path("", views.lobby, name="lobby"),
    re_path(r"^games/(?P<game_id>[A-Za-z0-9_-]{1,32})/$", views.game, name="game"),
]
