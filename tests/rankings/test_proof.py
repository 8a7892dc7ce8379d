"""Proof of a result (docs/protocol.md 9.3): a kit the server makes and signs verifies with the
stand-alone verifier; a changed move, time, seed or signature is rejected, naming the check; a
retired key still verifies what it signed while valid; the verifier needs no Django."""

from __future__ import annotations

import base64
import copy
import json
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from django.utils import timezone

from games.models import Player
from games.proof.keys import b64url, published_keys
from games.proof.kits import kit_build
from minerace_verify.checks import KitRejected, verify
from tests.scores.play import play_solo

pytestmark = pytest.mark.django_db

REPO = Path(__file__).resolve().parents[2]


def seed_of(key: Ed25519PrivateKey) -> str:
    from cryptography.hazmat.primitives.serialization import NoEncryption, PrivateFormat

    return b64url(key.private_bytes(Encoding.Raw, PrivateFormat.Raw, NoEncryption()))


@pytest.fixture
def keys(settings):
    """An old key, retired yesterday (its public key only), and the key that signs now."""
    now = timezone.now()
    old, new = Ed25519PrivateKey.generate(), Ed25519PrivateKey.generate()
    retired = {
        "key_id": "2026-a",
        "public_key": b64url(old.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)),
        "valid_from": (now - timedelta(days=30)).isoformat(),
        "valid_to": (now - timedelta(days=1)).isoformat(),
    }
    current = {"key_id": "2026-b", "private_key": seed_of(new),
               "valid_from": (now - timedelta(days=1)).isoformat(), "valid_to": None}  # fmt: skip
    settings.MINERACE = {**settings.MINERACE, "RECORD_KEYS": [retired, current]}
    return {"old": old, "retired": retired, "current": current}


def a_kit() -> dict:
    game = play_solo(name="ann")
    player = Player.objects.get(game=game)
    assert player.status == "won"
    kit = kit_build(game_id=game.id, player_id=player.id, confirmed_at=timezone.now())
    return json.loads(json.dumps(kit))  # as it travels


def rejected(kit: dict, keys: list) -> str:
    with pytest.raises(KitRejected) as failed:
        verify(kit, keys)
    return failed.value.check


def test_a_kit_made_by_the_server_verifies(client, keys):
    kit = a_kit()
    published = client.get("/api/records/keys/").json()
    assert published == published_keys()
    assert [(k["key_id"], k["alg"], k["valid_to"] is None) for k in published["keys"]] == [
        ("2026-a", "Ed25519", False), ("2026-b", "Ed25519", True)]  # fmt: skip
    assert len(base64.urlsafe_b64decode(published["keys"][1]["public_key"] + "=")) == 32
    found = verify(kit, published["keys"])
    assert (found.player, found.time_ms, found.key_id) == (
        "ann",
        kit["result"]["time_ms"],
        "2026-b",
    )
    assert kit["result"]["nf"] is True and kit["generator"] == "v1"
    assert base64.b64decode(kit["evf"])[:1]  # the EVF file travels with it


def test_a_changed_move_time_seed_or_signature_is_rejected_naming_the_check(keys):
    kit = a_kit()
    published = published_keys()["keys"]
    moved = copy.deepcopy(kit)
    moved["moves"] = moved["moves"][:-1]  # the winning move taken out: the log does not win
    assert rejected(moved, published) == "replay"
    swapped = copy.deepcopy(kit)  # a move in the middle put elsewhere, still a win: not signed
    middle = swapped["moves"][1]
    swapped["moves"].insert(1, {**middle, "seq": 2})
    for seq, move in enumerate(swapped["moves"], start=1):
        move["seq"] = seq
    assert rejected(swapped, published) in ("replay", "signature")
    slower = copy.deepcopy(kit)
    slower["result"]["time_ms"] -= 1000
    assert rejected(slower, published) == "time"
    reseeded = copy.deepcopy(kit)
    reseeded["seed"] = reseeded["seed"] + "x"
    assert rejected(reseeded, published) == "commitment"
    forged = copy.deepcopy(kit)
    signature = bytearray(base64.urlsafe_b64decode(forged["signature"]["sig"] + "=="))
    signature[0] ^= 1
    forged["signature"]["sig"] = b64url(bytes(signature))
    assert rejected(forged, published) == "signature"
    screened = copy.deepcopy(kit)
    screened["player"] = "eve"  # any other field: only the signature can tell
    assert rejected(screened, published) == "signature"


def test_a_retired_key_verifies_what_it_signed_while_valid_and_nothing_after(keys):
    kit = a_kit()
    published = published_keys()["keys"]
    old = copy.deepcopy(kit)
    old["confirmed_at"] = (timezone.now() - timedelta(days=2)).isoformat()
    old["signature"]["key_id"] = "2026-a"
    from minerace_verify.canonical import canonical_json

    old["signature"]["sig"] = b64url(keys["old"].sign(canonical_json(old)))
    assert verify(old, published).key_id == "2026-a"
    late = copy.deepcopy(old)
    late["confirmed_at"] = timezone.now().isoformat()  # after its valid_to
    late["signature"]["sig"] = b64url(keys["old"].sign(canonical_json(late)))
    assert rejected(late, published) == "signature"


def test_the_command_line_says_ok_or_which_check_failed(keys, tmp_path):
    kit = a_kit()
    good, bad, keys_file = tmp_path / "kit.json", tmp_path / "bad.json", tmp_path / "keys.json"
    good.write_text(json.dumps(kit))
    keys_file.write_text(json.dumps(published_keys()))
    kit["result"]["time_ms"] += 5
    bad.write_text(json.dumps(kit))
    command = [sys.executable, "-m", "minerace_verify"]
    ok = subprocess.run([*command, str(good), "--keys", str(keys_file)], cwd=REPO,
                        capture_output=True, text=True, check=False)  # fmt: skip
    assert ok.returncode == 0 and ok.stdout.startswith("OK: ann won in"), ok
    alone = subprocess.run([*command, str(good)], cwd=REPO, capture_output=True, text=True,
                           check=False)  # fmt: skip
    assert alone.returncode == 0, alone  # with the key the kit names
    no = subprocess.run([*command, str(bad), "--keys", str(keys_file)], cwd=REPO,
                        capture_output=True, text=True, check=False)  # fmt: skip
    assert no.returncode == 1 and no.stdout.startswith("REJECTED: time:"), no


def test_the_verifier_imports_no_django():
    probe = (
        "import sys, minerace_verify.checks, minerace_verify.__main__; "
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('django', 'channels')); "
        "print(bad); sys.exit(1 if bad else 0)"
    )
    answer = subprocess.run([sys.executable, "-c", probe], cwd=REPO, capture_output=True,
                            text=True, check=False)  # fmt: skip
    assert answer.returncode == 0, answer.stdout + answer.stderr
