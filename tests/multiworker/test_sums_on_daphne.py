"""The sum of bests on real Daphne workers, PostgreSQL and Redis (docs/protocol.md 9.2): an
account's counted wins on the three no-guess presets, played on two workers, make its sum, the
same on either worker, in both styles (the program never flags), with each part's game; an
account with two of the three has none; asked with the account's session, `you` is its row;
its player page says its sum and place."""

from __future__ import annotations

import pytest

from tests.multiworker.conftest import make_cluster
from tests.multiworker.programs import http_json, sign_up, solo_win

pytestmark = pytest.mark.services

LENIENT = {  # programs click fast: nothing holds their wins here
    "MINERACE_FAIRPLAY_PACE_BEGINNER": "inf",
    "MINERACE_FAIRPLAY_PACE_INTERMEDIATE": "inf",
    "MINERACE_FAIRPLAY_PACE_EXPERT": "inf",
    "MINERACE_FAIRPLAY_REACTION_MS": "0",
    "MINERACE_FAIRPLAY_METRONOME_SHORT": "0",
    "MINERACE_FAIRPLAY_METRONOME_LONG": "0",
}
PRESETS = ("beginner", "intermediate", "expert")


@pytest.fixture(scope="module")
def workers(postgres, tmp_path_factory):
    cluster = make_cluster(
        postgres, "redis://127.0.0.1:6379/0", tmp_path_factory.mktemp("sums"),
        MINERACE_TRUSTED_PROXIES="127.0.0.1", **LENIENT,
    )  # fmt: skip
    yield cluster.workers
    cluster.stop()


async def test_three_wins_on_two_workers_make_a_sum_seen_alike_on_both(workers):
    a, b = workers
    summer = sign_up(a.url, "summer", "203.0.113.71")
    partial = sign_up(b.url, "partial", "203.0.113.72")
    wins = {}
    for k, preset in enumerate(PRESETS):
        worker = (a, b)[k % 2]
        played, _ = await solo_win(worker.url, worker.ws_url, summer, preset, 0, 3, True)
        wins[preset] = played.game_id
    for preset in PRESETS[:2]:
        await solo_win(b.url, b.ws_url, partial, preset, 0, 3, True)
    times = {
        preset: http_json(f"{a.url}/api/games/{game}/")["results"][0]["time_ms"]
        for preset, game in wins.items()
    }
    for style in ("all", "nf"):
        query = f"/api/leaderboards/sum/?variant=no_guess&style={style}"
        board = http_json(a.url + query)
        assert board == http_json(b.url + query)
        assert (board["variant"], board["style"], board["period"]) == ("no_guess", style, "all")
        (entry,) = board["entries"]  # partial has two of the three: no sum
        assert (entry["rank"], entry["name"], entry["sum_ms"]) == (1, "summer", sum(times.values()))
        assert {p: part["game"] for p, part in entry["parts"].items()} == wins
        assert all(part["nf"] for part in entry["parts"].values())
        mine = http_json(b.url + query, summer)
        assert mine["you"]["name"] == "summer" and mine["you"]["rank"] == 1
        assert http_json(a.url + query, partial)["you"] is None
        week = http_json(b.url + query + "&period=week")
        assert [e["sum_ms"] for e in week["entries"]] == [entry["sum_ms"]]
    assert http_json(f"{a.url}/api/leaderboards/sum/")["entries"] == []  # classic: none
    page = http_json(f"{b.url}/api/players/summer/")
    assert {(s["variant"], s["style"], s["rank"], s["sum_ms"]) for s in page["sums"]} == {
        ("no_guess", "all", 1, sum(times.values())),
        ("no_guess", "nf", 1, sum(times.values())),
    }
    assert http_json(f"{a.url}/api/players/partial/")["sums"] == []
