"""Record candidates made the way the server makes them (docs/protocol.md 9.3): slower wins on
the board first, then an account's ranked win, played through the services on the test's
clock, that would be first there, so the screen's `record` puts it under review."""

from __future__ import annotations

from datetime import timedelta

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import (
    Encoding,
    NoEncryption,
    PrivateFormat,
)
from django.utils import timezone

from games.engine.commitment import commitment
from games.fairplay.models import Review
from games.models import Game
from games.proof.keys import b64url
from tests.fairplay.play import Clock, account, middle, ranked_solo, steady, sweep
from tests.scores.play import fake_finish

ENTRIES = 3  # MINERACE_FAIRPLAY_RECORD_ENTRIES in these tests


def record_key_setting() -> list[dict]:
    """One signing key, valid from a month ago (the tests' clocks stand a little after now)."""
    seed = Ed25519PrivateKey.generate().private_bytes(
        Encoding.Raw, PrivateFormat.Raw, NoEncryption()
    )
    valid_from = (timezone.now() - timedelta(days=30)).isoformat()
    return [{"key_id": "test-1", "private_key": b64url(seed), "valid_from": valid_from,
             "valid_to": None}]  # fmt: skip


def slow_wins(count: int = ENTRIES, nf: bool = False, start_ms: int = 600_000) -> None:
    """Guests' wins on beginner, far slower than any sweep of these tests."""
    for k in range(count):
        fake_finish(f"slow{'nf' if nf else ''}{k}", start_ms + 1_000 * k, nf=nf)


def candidate(clock: Clock, name: str, gap_ms: float = 300, user=None) -> Review:
    """`name`'s beginner win at one click every `gap_ms` (the same board each time: the same
    clicks, so a smaller gap is a faster time), and its screen's row."""
    user = user or account(name)
    game, player = ranked_solo("beginner", user)
    # ranked_solo fixed the seed after creation: the commitment says so, as the server's would.
    game.seed_commitment = commitment(game.seed, game.seed_salt)
    Game.objects.filter(pk=game.pk).update(seed_commitment=game.seed_commitment)
    assert sweep(game, player, clock, steady(gap_ms), middle(game)) == "won"
    clock.advance(1000)
    return Review.objects.get(player=player)
