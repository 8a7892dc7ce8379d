"""Root URLs: the JSON API under /api/, the admin, and the pages."""

from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("api/", include("games.urls")),
    path("admin/", admin.site.urls),
    path("", include("frontend.urls")),
]
