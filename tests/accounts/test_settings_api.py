"""`/api/me/settings/`: an account's settings follow it; guests keep theirs in the browser."""

import json

import pytest
from django.contrib.auth import get_user_model

from games.accounts.models import AccountSettings

pytestmark = pytest.mark.django_db

URL = "/api/me/settings/"


def put(client, body, content_type="application/json"):
    data = body if isinstance(body, str) else json.dumps(body)
    return client.put(URL, data, content_type=content_type)


@pytest.fixture
def account(client):
    user = get_user_model().objects.create_user("Élise", password="Mines-sweep-42")
    client.force_login(user)
    return user


def test_a_guest_has_no_server_settings(client):
    assert client.get(URL).json() == {"account": None, "settings": {}}
    refused = put(client, {"theme": "dark"})
    assert refused.status_code == 401 and refused.json()["error"]["code"] == "not_logged_in"


def test_an_account_keeps_and_merges_its_settings(client, account):
    assert client.get(URL).json() == {"account": "Élise", "settings": {}}
    first = put(client, {"theme": "dark", "cell_size": 30})
    assert first.status_code == 200
    assert put(client, {"flag_mode": True}).json()["settings"] == {
        "theme": "dark", "cell_size": 30, "flag_mode": True,
    }  # fmt: skip
    everything = {"chord_on_left": False, "long_press_ms": 400, "sound": True, "theme": "contrast"}
    assert put(client, everything).status_code == 200
    assert client.get(URL).json()["settings"] == {"cell_size": 30, "flag_mode": True, **everything}


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"theme": "neon"}, "theme"),
        ({"cell_size": 11}, "cell_size"),
        ({"cell_size": 49}, "cell_size"),
        ({"cell_size": 20.5}, "cell_size"),
        ({"cell_size": True}, "cell_size"),
        ({"long_press_ms": 100}, "long_press_ms"),
        ({"sound": "yes"}, "sound"),
        ({"flag_mode": 1}, "flag_mode"),
        ({"chord_on_left": None}, "chord_on_left"),
        ({"colour": "red"}, "colour"),
        ({"theme": "dark", "volume": 3}, "volume"),
    ],
)
def test_bad_settings_are_invalid_and_change_nothing(client, account, body, field):
    put(client, {"theme": "classic"})
    refused = put(client, body)
    assert refused.status_code == 400
    assert refused.json()["error"]["code"] == "invalid"
    assert refused.json()["error"]["field"] == field
    assert AccountSettings.objects.get(user=account).values == {"theme": "classic"}


def test_only_json_bodies_can_change_settings(client, account):
    """A form post from another site could carry no JSON content type without a preflight."""
    refused = put(client, '{"theme": "dark"}', content_type="text/plain")
    assert refused.status_code == 415
    assert refused.json()["error"]["code"] == "unsupported_media_type"
    assert put(client, "[1]").json()["error"]["code"] == "bad_json"
    assert client.post(URL, {}, content_type="application/json").status_code == 405
    assert not AccountSettings.objects.filter(user=account).exists()
