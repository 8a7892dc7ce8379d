"""docs/openapi.yaml describes exactly the routes of games/urls.py, with their methods, so the
description cannot drift from the code silently (a new route fails here until described)."""

from __future__ import annotations

import re

import pytest
import schemathesis
from django.urls import URLPattern

from games.edge import http as api
from games.urls import urlpatterns
from tests.fuzz.edge_http import SPEC_PATH, assert_documented, request, spec

METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
SAMPLES = {
    "game_id": "nosuchgame",
    "preset": "beginner",
    "name": "nobody",
    "day": "2001-01-01",
    "season": "current",
    "tournament_id": "nosuchtournament",
    "match_id": "nosuchmatch",
    "record_id": "999999",
}


def openapi_path(route: URLPattern) -> str:
    """`^games/(?P<game_id>[A-Za-z0-9_-]{1,32})/moves/$` -> `/api/games/{game_id}/moves/`."""
    body = route.pattern.regex.pattern.removeprefix("^").removesuffix("$")
    return "/api/" + re.sub(r"\(\?P<(\w+)>[^)]*\)", r"{\1}", body)


ROUTES = [r for r in urlpatterns if r.callback is not api.not_routed]


def test_the_file_is_openapi_3_1_and_schemathesis_reads_it():
    document = spec()
    assert document["openapi"].startswith("3.1.")
    schema = schemathesis.openapi.from_path(str(SPEC_PATH))
    labels = {result.ok().label for result in schema.get_all_operations()}
    described = {
        f"{method.upper()} {path}"
        for path, item in document["paths"].items()
        for method in METHODS
        if method in item
    }
    assert labels == described


def test_it_lists_exactly_the_routes_of_games_urls():
    assert sorted(spec()["paths"]) == sorted(openapi_path(r) for r in ROUTES)
    # And the rest of /api/ is the catch-all, a JSON 404.
    assert [r.callback for r in urlpatterns].count(api.not_routed) == 1


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("route", ROUTES, ids=openapi_path)
async def test_each_route_allows_exactly_the_described_methods(route):
    """A method no route allows is a 405 whose `Allow` lists the route's methods."""
    path = openapi_path(route)
    concrete = re.sub(r"\{(\w+)\}", lambda m: SAMPLES[m.group(1)], path)
    answer = await request("PROPFIND", concrete)
    assert assert_documented(answer, "PROPFIND", concrete) == "method_not_allowed"
    allowed = {m.strip().lower() for m in answer.headers["allow"].split(",")}
    described = {m for m in METHODS if m in spec()["paths"][path]}
    assert allowed == described, path
