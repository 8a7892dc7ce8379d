"""Records on real Daphne workers, PostgreSQL and Redis (docs/protocol.md 9.3): a program's
beginner win faster than the board's first is a record candidate under review; two confirmers
press *Confirm* in the admin at the same moment, on two workers: one record of each style, the
score released; `GET /api/records/` lists it on either worker; its kit, downloaded over HTTP,
passes `python -m minerace_verify KIT.json --keys KEYS.json` (the keys downloaded too), and
the verifier rejects it with a changed move, time, seed or signature, naming the check."""

from __future__ import annotations

import base64
import copy
import http.cookiejar
import json
import re
import subprocess
import sys
import threading
import urllib.parse
import urllib.request
from datetime import UTC, datetime, timedelta
from pathlib import Path

import psycopg
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, NoEncryption, PrivateFormat

from games.proof.keys import b64url
from tests.multiworker.conftest import make_cluster
from tests.multiworker.programs import PASSWORD, http_json, sign_up, solo_win

pytestmark = pytest.mark.services

REPO = Path(__file__).resolve().parents[2]
LENIENT = {  # programs click fast: only `record` may hold their wins here
    "MINERACE_FAIRPLAY_PACE_BEGINNER": "inf",
    "MINERACE_FAIRPLAY_REACTION_MS": "0",
    "MINERACE_FAIRPLAY_METRONOME_SHORT": "0",
    "MINERACE_FAIRPLAY_METRONOME_LONG": "0",
    "MINERACE_FAIRPLAY_RECORD_ENTRIES": "1",
}


def record_keys() -> str:
    seed = Ed25519PrivateKey.generate().private_bytes(
        Encoding.Raw, PrivateFormat.Raw, NoEncryption()
    )
    valid_from = (datetime.now(UTC) - timedelta(days=1)).isoformat()
    return json.dumps([{"key_id": "daphne-1", "private_key": b64url(seed),
                        "valid_from": valid_from, "valid_to": None}])  # fmt: skip


@pytest.fixture(scope="module")
def workers(postgres, tmp_path_factory):
    cluster = make_cluster(
        postgres, "redis://127.0.0.1:6379/0", tmp_path_factory.mktemp("records"),
        MINERACE_TRUSTED_PROXIES="127.0.0.1", MINERACE_RECORD_KEYS=record_keys(), **LENIENT,
    )  # fmt: skip
    yield cluster.workers
    cluster.stop()


def review_of(postgres_url: str, player_id: str) -> tuple[int, str | None, dict]:
    with psycopg.connect(postgres_url) as conn:
        return conn.execute(
            "SELECT id, status, signals FROM fairplay_review WHERE player_id = %s", (player_id,)
        ).fetchone()


def make_confirmer(postgres_url: str, name: str) -> None:
    """Staff holding games.confirm_record, as an operator makes one."""
    with psycopg.connect(postgres_url) as conn:
        conn.execute("UPDATE auth_user SET is_staff = true WHERE username = %s", (name,))
        conn.execute(
            "INSERT INTO auth_user_user_permissions (user_id, permission_id) "
            "SELECT u.id, p.id FROM auth_user u, auth_permission p "
            "JOIN django_content_type c ON p.content_type_id = c.id "
            "WHERE u.username = %s AND p.codename = 'confirm_record' AND c.app_label = 'games'",
            (name,),
        )


class Browser:
    """A logged-in client with cookies and CSRF, as a person's browser in the admin."""

    def __init__(self, base_url: str, name: str) -> None:
        self.base_url = base_url
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
        )
        self.post("/accounts/login/", {"username": name, "password": PASSWORD})

    def get(self, path: str) -> str:
        with self.opener.open(self.base_url + path, timeout=30) as page:
            return page.read().decode()

    def post(self, path: str, form: dict, csrf_from: str | None = None) -> str:
        page = self.get(csrf_from or path)
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
        body = urllib.parse.urlencode({"csrfmiddlewaretoken": token, **form}, doseq=True)
        with self.opener.open(self.base_url + path, body.encode(), timeout=30) as answer:
            return answer.read().decode()


def verifier(kit: dict, keys_file: Path, tmp_path: Path, label: str) -> subprocess.CompletedProcess:
    path = tmp_path / f"{label}.json"
    path.write_text(json.dumps(kit))
    command = [sys.executable, "-m", "minerace_verify", str(path), "--keys", str(keys_file)]
    return subprocess.run(command, cwd=REPO, capture_output=True, text=True, check=False)


async def test_a_record_confirmed_on_two_workers_at_once_has_a_kit_the_verifier_checks(
    workers, postgres, tmp_path
):
    a, b = workers
    slow = sign_up(a.url, "slowpoke", "203.0.113.61")
    await solo_win(a.url, a.ws_url, slow, "beginner", pace_ms=150, tries=10)
    fast = sign_up(b.url, "speedy", "203.0.113.62")
    for _ in range(10):  # boards differ: a quicker pace is usually, not always, a faster time
        played, _ = await solo_win(b.url, b.ws_url, fast, "beginner", pace_ms=0, tries=10)
        review_id, status, signals = review_of(postgres.url, played.player_id)
        if "record" in signals:
            break
    else:
        raise AssertionError("no win of speedy's was first of the board")
    # first of all wins and of NF wins: the brain never flags
    assert status == "under_review" and signals["record"]["styles"] == ["all", "nf"]
    board = http_json(f"{a.url}/api/leaderboards/beginner/")
    assert [e["name"] for e in board["entries"]] == ["slowpoke"]  # held while under review

    for name, address in (("judge1", "203.0.113.63"), ("judge2", "203.0.113.64")):
        sign_up(a.url, name, address)
        make_confirmer(postgres.url, name)
    judges = [Browser(a.url, "judge1"), Browser(b.url, "judge2")]
    candidates = "/admin/records/recordcandidate/"
    for judge in judges:
        assert "speedy" in judge.get(candidates)
    pages: list[str] = []
    action = {"action": "confirm", "_selected_action": [review_id], "index": "0"}
    presses = [threading.Thread(target=lambda j=j: pages.append(j.post(candidates, action)))
               for j in judges]  # fmt: skip
    for press in presses:
        press.start()
    for press in presses:
        press.join(timeout=60)
    assert len(pages) == 2 and any(f"#{review_id}: Confirmed" in page for page in pages), pages
    with psycopg.connect(postgres.url) as conn:
        made = conn.execute(
            "SELECT style, confirmed_by_id FROM records_record ORDER BY style"
        ).fetchall()
    assert [style for style, _ in made] == ["all", "nf"]  # once, whoever pressed first
    assert len({by for _, by in made}) == 1

    listed = http_json(f"{b.url}/api/records/")
    assert listed == http_json(f"{a.url}/api/records/")
    assert [(r["name"], r["style"]) for r in listed["records"]] == [("speedy", "all"),
                                                                    ("speedy", "nf")]  # fmt: skip
    assert http_json(f"{b.url}/api/leaderboards/beginner/")["entries"][0]["name"] == "speedy"
    record = listed["records"][0]
    with urllib.request.urlopen(a.url + record["kit"], timeout=10) as download:
        assert download.headers["Content-Type"] == "application/json"
        assert "attachment" in download.headers["Content-Disposition"]
        kit = json.loads(download.read())
    keys_file = tmp_path / "keys.json"
    keys_file.write_text(json.dumps(http_json(f"{b.url}/api/records/keys/")))
    assert (kit["player"], kit["result"]["time_ms"]) == ("speedy", record["time_ms"])

    ok = verifier(kit, keys_file, tmp_path, "kit")
    assert ok.returncode == 0 and ok.stdout.startswith("OK: speedy won in"), ok

    moved = copy.deepcopy(kit)  # the winning click put on the first one's cell: no win
    first = moved["moves"][0]
    moved["moves"][-1].update(x=first["x"], y=first["y"])
    slower = copy.deepcopy(kit)
    slower["result"]["time_ms"] += 1000
    reseeded = copy.deepcopy(kit)
    reseeded["seed"] = reseeded["seed"][::-1]
    forged = copy.deepcopy(kit)
    signature = bytearray(base64.urlsafe_b64decode(forged["signature"]["sig"] + "=="))
    signature[-1] ^= 1
    forged["signature"]["sig"] = b64url(bytes(signature))
    for label, changed, check in (("move", moved, "replay"), ("time", slower, "time"),
                                  ("seed", reseeded, "commitment"),
                                  ("signature", forged, "signature")):  # fmt: skip
        rejected = verifier(changed, keys_file, tmp_path, label)
        assert rejected.returncode == 1, (label, rejected)
        assert rejected.stdout.startswith(f"REJECTED: {check}:"), (label, rejected.stdout)
