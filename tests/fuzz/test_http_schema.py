"""schemathesis drives docs/openapi.yaml against the Django app in process: requests built
from the description (valid and deliberately invalid: its examples, boundaries and random
fuzzing), each answer checked against the description and against docs/protocol.md 3."""

from __future__ import annotations

from urllib.parse import unquote

import pytest
import schemathesis
from django.core.wsgi import get_wsgi_application
from hypothesis import assume, note
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from games.models import Game, GameStatus
from games.races.spec import game_spec
from tests.fuzz import known_bugs
from tests.fuzz.budget import COUNTS, fuzz_settings
from tests.fuzz.edge_http import SPEC_PATH, Answer, assert_documented, creates_game
from tests.scores.play import play_solo

schema = schemathesis.openapi.from_path(str(SPEC_PATH))
# Methods a route does not allow: test_http_garbage.py sends every method to every route.
schema.config.phases.coverage.unexpected_methods = set()
app = get_wsgi_application()  # in process; test_http_garbage.py goes through ASGI

# What the description can promise: no 5xx, only documented statuses, content types, headers
# and bodies. (A valid-looking body may still be refused: the mines limit depends on the size,
# so "positive data is accepted" is not among them.)
CHECKS = [
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
]


@pytest.fixture
def games(transactional_db):
    """A lobby game and a finished one, so generated ids sometimes hit real games."""
    from games.races import lifecycle

    lobby = lifecycle.game_create(spec=game_spec({"preset": "beginner"}))
    finished = play_solo("beginner", "alice", win=True)
    assert finished.status == GameStatus.FINISHED
    return [lobby.id, finished.id]


@schema.parametrize()
@fuzz_settings(10)
def test_the_api_answers_as_described(case, games):
    game_id = case.path_parameters.get("game_id") if case.path_parameters else None
    if game_id is not None and len(game_id) % 3 != 0:
        # Two in three ids are real games (the generator cannot know any).
        case.path_parameters["game_id"] = games[len(game_id) % 3 - 1]
    body = case.body if isinstance(case.body, dict) else None
    assume(not known_bugs.http(unquote(case.formatted_path), body))
    before = Game.objects.count()
    response = case.call(app=app)
    COUNTS["http requests"] += 1
    note(
        f"{case.method} {case.formatted_path} -> {response.status_code} {response.content[:300]!r}"
    )
    case.validate_response(response, checks=CHECKS)
    answer = Answer(
        response.status_code,
        {k.lower(): ", ".join(v) for k, v in response.headers.items()},
        response.content,
    )
    path = unquote(case.formatted_path)
    assert_documented(answer, case.method.upper(), path)
    created = 1 if creates_game(case.method.upper(), path, response.status_code) else 0
    assert Game.objects.count() == before + created
