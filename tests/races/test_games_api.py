import hashlib
import json

import pytest

pytestmark = pytest.mark.django_db


def post(client, body, **extra):
    data = body if isinstance(body, (str, bytes)) else json.dumps(body)
    # The test client drops the Content-Type of an empty body; a program sends it anyway.
    extra.setdefault("CONTENT_TYPE", "application/json")
    return client.post("/api/games/", data=data, content_type="application/json", **extra)


def assert_error(response, status, code, field=None):
    assert response.status_code == status, response.content
    assert response["Content-Type"] == "application/json"
    error = response.json()["error"]
    assert set(response.json()) == {"error"} and set(error) == {"code", "message", "field"}
    assert (error["code"], error["field"]) == (code, field)
    assert error["message"]


def test_create_a_preset_solo_game(client):
    response = post(client, {"mode": "solo", "preset": "expert"})
    assert response.status_code == 201
    state = response.json()
    assert (state["width"], state["height"], state["mines"]) == (30, 16, 99)
    assert state["mode"] == "solo" and state["preset"] == "expert"
    assert state["ranked"] is True and state["status"] == "lobby"
    assert state["page"] == f"/games/{state['id']}/" and state["ws"] == f"/ws/games/{state['id']}/"
    assert state["players"] == [] and state["start"] is None
    assert len(state["seed_commitment"]) == 64
    for secret in ("seed", "mine_cells", "safe_cell", "results"):
        assert secret not in state


def test_mode_defaults_to_solo_and_null_is_absent(client):
    assert post(client, {"preset": "beginner"}).json()["mode"] == "solo"
    assert post(client, {"mode": None, "preset": "beginner", "seed": None}).json()["ranked"]


def test_custom_size_and_chosen_seed_are_unranked(client):
    custom = post(client, {"width": 20, "height": 10, "mines": 30}).json()
    assert (custom["width"], custom["height"], custom["mines"], custom["preset"]) == (
        20,
        10,
        30,
        None,
    )
    assert custom["ranked"] is False
    seeded = post(client, {"preset": "beginner", "seed": "minerace"}).json()
    assert seeded["ranked"] is False
    # Salted (docs/protocol.md 1.7): the bare hash of a guessable seed gives nothing away.
    assert seeded["seed_commitment"] != hashlib.sha256(b"minerace").hexdigest()
    assert "seed_salt" not in seeded
    from games.engine.commitment import commitment
    from games.models import Game

    salt = Game.objects.get(pk=seeded["id"]).seed_salt
    assert len(salt) == 32 and seeded["seed_commitment"] == commitment("minerace", salt)


def test_server_seeds_are_secret_and_distinct(client):
    a = post(client, {"preset": "beginner"}).json()
    b = post(client, {"preset": "beginner"}).json()
    assert a["seed_commitment"] != b["seed_commitment"]


def test_race_max_players(client):
    assert post(client, {"mode": "race", "preset": "beginner"}).json()["max_players"] == 8
    assert (
        post(client, {"mode": "race", "preset": "beginner", "max_players": 2}).json()["max_players"]
        == 2
    )
    assert_error(post(client, {"mode": "race", "preset": "beginner", "max_players": 17}),
                 400, "invalid", "max_players")  # fmt: skip


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"mode": "duel", "preset": "beginner"}, "mode"),
        ({"preset": "huge"}, "preset"),
        ({"preset": "beginner", "width": 9}, "preset"),
        ({}, "preset"),
        ({"width": 4, "height": 9, "mines": 10}, "width"),
        ({"width": 101, "height": 9, "mines": 10}, "width"),
        ({"width": 9, "height": 9.0, "mines": 10}, "height"),
        ({"width": 9, "height": True, "mines": 10}, "height"),
        ({"width": "9", "height": 9, "mines": 10}, "width"),
        ({"width": 9, "height": 9, "mines": 0}, "mines"),
        ({"width": 9, "height": 9, "mines": 73}, "mines"),
        ({"width": 9, "height": 9}, "mines"),
        ({"preset": "beginner", "seed": ""}, "seed"),
        ({"preset": "beginner", "seed": "x" * 65}, "seed"),
        ({"preset": "beginner", "seed": "a\nb"}, "seed"),
        ({"preset": "beginner", "seed": 42}, "seed"),
        ({"preset": "beginner", "seed": "a\ud800b"}, "seed"),  # a lone surrogate escape
        ({"width": 9, "height": 9, "mines": 10, "no_guess": True}, "no_guess"),
        ({"preset": "expert", "no_guess": "true"}, "no_guess"),
        ({"preset": "expert", "no_guess": 1}, "no_guess"),
        ({"preset": ["beginner"]}, "preset"),
        ({"preset": {"name": "beginner"}}, "preset"),
        ({"mode": "race", "preset": "beginner", "bot": ["quick"]}, "bot"),
    ],
)
def test_invalid_bodies_name_the_field_and_create_nothing(client, body, field):
    from games.models import Game

    assert_error(post(client, body), 400, "invalid", field)
    assert Game.objects.count() == 0


def test_largest_custom_board_and_64_code_point_seed(client):
    state = post(client, {"width": 100, "height": 100, "mines": 9991, "seed": "é" * 64})
    assert state.status_code == 201


@pytest.mark.parametrize(
    "raw", ["not json", "[1, 2]", '"text"', "{'a': 1}", "NaN", '{"x": NaN}', ""]
)
def test_bad_json(client, raw):
    assert_error(post(client, raw), 400, "bad_json")


@pytest.mark.parametrize(
    "content_type", ["text/plain", "application/x-www-form-urlencoded", "application/json5", ""]
)
def test_a_body_must_say_it_is_json(client, content_type):
    """docs/protocol.md 3, v1.2: anything but application/json is 415, and creates nothing."""
    body = '{"preset": "beginner"}'
    response = post(client, body, CONTENT_TYPE=content_type)
    assert_error(response, 415, "unsupported_media_type")
    assert post(client, body, CONTENT_TYPE="Application/JSON; charset=utf-8").status_code == 201


def test_too_large(client):
    body = json.dumps({"preset": "beginner", "pad": "x" * 17000})
    assert_error(post(client, body), 413, "too_large")


def test_unknown_game_unrouted_paths_and_methods(client):
    assert_error(client.get("/api/games/nope/"), 404, "not_found")
    assert_error(client.get("/api/games/bad!id/"), 404, "not_found")
    assert_error(client.get("/api/nothing/here"), 404, "not_found")
    assert_error(client.get("/api/"), 404, "not_found")
    assert_error(client.delete("/api/games/"), 405, "method_not_allowed")
    game = post(client, {"preset": "beginner"}).json()
    json_type = {"content_type": "application/json"}
    assert_error(client.post(f"/api/games/{game['id']}/", **json_type), 405, "method_not_allowed")
    moves = client.put(f"/api/games/{game['id']}/moves/", "{}", **json_type)
    assert_error(moves, 405, "method_not_allowed")


def test_public_state_by_id(client):
    game = post(client, {"preset": "intermediate"}).json()
    again = client.get(f"/api/games/{game['id']}/").json()
    assert again == game


def test_moves_before_the_end_are_not_finished(client):
    game = post(client, {"preset": "beginner"}).json()
    assert_error(client.get(f"/api/games/{game['id']}/moves/"), 409, "not_finished")


def test_lobby_list_needs_status(client):
    assert_error(client.get("/api/games/"), 400, "invalid", "status")
    assert_error(client.get("/api/games/?status=finished"), 400, "invalid", "status")


def test_lobby_list_shows_open_races_newest_first(client):
    post(client, {"preset": "beginner"})  # solo: never listed
    first = post(client, {"mode": "race", "preset": "beginner"}).json()
    second = post(client, {"mode": "race", "preset": "expert"}).json()
    listed = client.get("/api/games/?status=lobby").json()["games"]
    assert [g["id"] for g in listed] == [second["id"], first["id"]]


def test_creation_is_rate_limited(client, settings):
    settings.MINERACE = {**settings.MINERACE, "CREATE_RATE_PER_MIN": 3, "CREATE_BURST": 3}
    for _ in range(3):
        assert post(client, {"preset": "beginner"}).status_code == 201
    response = post(client, {"preset": "beginner"})
    assert_error(response, 429, "rate_limited")
    assert int(response["Retry-After"]) > 0


def test_no_guess_on_a_preset_is_said_in_the_public_state(client):
    created = post(client, {"mode": "race", "preset": "expert", "no_guess": True}).json()
    assert created["no_guess"] is True and created["ranked"] is True
    assert client.get(f"/api/games/{created['id']}/").json()["no_guess"] is True
    assert post(client, {"preset": "beginner", "no_guess": False}).json()["no_guess"] is False
    assert post(client, {"preset": "beginner"}).json()["no_guess"] is False
    assert "ng_attempt" not in created  # disclosed with the seed, once finished
