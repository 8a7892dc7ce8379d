"""A won game's verification kit (docs/protocol.md 9.3), signed over its canonical JSON with
the record key valid when the result was confirmed."""

from __future__ import annotations

import base64
from datetime import UTC, datetime
from typing import Any

from games.engine.statistics import bbbv_per_s
from games.errors import ServiceError
from games.export.selectors import game_export
from games.fairplay.models import Review
from games.models import Game, Move, Player, PlayerStatus
from games.proof.keys import b64url, signing_key
from games.timefmt import iso
from minerace_verify.canonical import canonical_json


def precise(moment: datetime | None) -> str | None:
    """A moment to the microsecond, as the server measured it: the kit's times re-derive the
    result's milliseconds exactly (the wire's ISO times are rounded to the millisecond)."""
    if moment is None:
        return None
    return moment.astimezone(UTC).isoformat(timespec="microseconds").replace("+00:00", "Z")


def _move(move: Move) -> dict[str, Any]:
    """A logged move with the server's receive time (docs/protocol.md 6.3: when its frame was
    read off the connection; a move stored before that was kept: when it was applied) and the
    moment it was applied, which its `t_ms` and the result's time are measured to."""
    return {
        "seq": move.seq,
        "action": move.action,
        "x": move.x,
        "y": move.y,
        "t_ms": move.t_ms,
        "received_at": precise(move.received_at or move.created_at),
        "applied_at": precise(move.created_at),
    }


def kit_build(*, game_id: str, player_id: str, confirmed_at: datetime) -> dict[str, Any]:
    """The kit of one player's win, signed (a game not over, or not won: refused)."""
    game = Game.objects.filter(pk=game_id).first()
    player = Player.objects.filter(pk=player_id, game_id=game_id).first()
    if game is None or player is None:
        raise ServiceError("not_found", "no such game or player")
    if not game.secrets_open() or player.status != PlayerStatus.WON:
        raise ServiceError("not_finished", "a kit is made of a finished, won game")
    moves = Move.objects.filter(player_id=player.id).order_by("seq")
    review = Review.objects.filter(player_id=player.id).first()
    evf = game_export(game_id=game.id, player_id=player.id).content
    kit: dict[str, Any] = {
        "kit": 1,
        "game": game.id,
        "width": game.width,
        "height": game.height,
        "mines": game.mines,
        "seed": game.seed,
        "seed_salt": game.seed_salt,
        "seed_commitment": game.seed_commitment,
        "commitment_published_at": iso(game.created_at),
        "started_at": precise(game.started_at),
        "safe_cell": list(game.safe_cell) if game.safe_cell else None,
        "generator": "ng1" if game.no_guess else "v1",
        "ng_attempt": game.ng_attempt,
        "player": player.name,
        "moves": [_move(m) for m in moves],
        "result": {
            "time_ms": player.time_ms,
            "bbbv": game.bbbv,
            "bbbv_per_s": bbbv_per_s(game.bbbv, player.time_ms),
            "clicks": player.clicks,
            "nf": player.nf,
        },
        "screening": None
        if review is None
        else {"counts": review.counts, "signals": review.signals, "timing": review.timing},
        "confirmed_at": iso(confirmed_at),
        "evf": base64.b64encode(evf).decode("ascii"),
    }
    key = signing_key(confirmed_at)
    assert key.private is not None
    kit["signature"] = {
        "alg": "Ed25519",
        "key_id": key.key_id,
        "sig": b64url(key.private.sign(canonical_json(kit))),
        "key": {k: v for k, v in key.public_entry().items() if k != "key_id"},
    }
    return kit
