"""Each check of a verification kit (docs/protocol.md 9.3), in the order they depend on each
other: the commitment, the board rebuilt from the seed (generation v1 or ng1, docs/protocol.md
1), the move log replayed by the rules (2) to the stated result, its time and 3BV/s, and the
signature with a published key valid when the record was confirmed."""

from __future__ import annotations

import base64
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from games.engine import LoggedMove, Sweep, SweepStatus, bbbv, generate_board, replay
from games.engine.commitment import commitment
from games.engine.moves import move_from_action
from games.engine.noguess import board_seed, ng1_attempt
from minerace_verify.canonical import canonical_json


class KitRejected(Exception):
    """A check failed: `check` names it, the message says why."""

    def __init__(self, check: str, message: str) -> None:
        super().__init__(f"{check}: {message}")
        self.check = check


@dataclass(frozen=True)
class Verified:
    player: str
    time_ms: int
    bbbv: int
    bbbv_per_s: float
    key_id: str


def _moment(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def _b64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _fail(check: str, message: str) -> None:
    raise KitRejected(check, message)


def check_commitment(kit: dict[str, Any]) -> None:
    if commitment(kit["seed"], kit["seed_salt"]) != kit["seed_commitment"]:
        _fail("commitment", "the seed and salt do not give the published commitment")
    if _moment(kit["commitment_published_at"]) > _moment(kit["started_at"]):
        _fail("commitment", "the commitment was published after the game started")


def rebuild_board(kit: dict[str, Any]):
    """The board from the seed, as the generator the kit names makes it."""
    width, height, mines = kit["width"], kit["height"], kit["mines"]
    safe = tuple(kit["safe_cell"])
    if kit["generator"] == "ng1":
        attempt = ng1_attempt(width, height, mines, kit["seed"], safe)
        if attempt != kit.get("ng_attempt"):
            _fail("board", f"ng1 chooses attempt {attempt}, the kit says {kit.get('ng_attempt')}")
        return generate_board(width, height, mines, board_seed(kit["seed"], attempt), safe)
    if kit["generator"] != "v1":
        _fail("board", f"unknown generator {kit['generator']!r}")
    return generate_board(width, height, mines, kit["seed"], safe)


def check_replay(kit: dict[str, Any], board) -> tuple[int, int, float]:
    """Replay the log: a win, its time from the server's receive times, its 3BV and 3BV/s."""
    started = _moment(kit["started_at"])
    logged = []
    for expected_seq, move in enumerate(kit["moves"], start=1):
        if move["seq"] != expected_seq:
            _fail("replay", f"move {expected_seq} is missing or out of order")
        applied = _moment(move.get("applied_at") or move["received_at"])
        if _moment(move["received_at"]) > applied:
            _fail("time", f"move {expected_seq} was applied before it was received")
        t_ms = int((applied - started).total_seconds() * 1000)
        if move.get("t_ms") is not None and move["t_ms"] != max(0, t_ms):
            _fail("time", f"move {expected_seq}'s time is not the server's clock at it")
        action = move_from_action(move["action"], move["x"], move["y"])
        logged.append(LoggedMove(move["seq"], action, t_ms))
    sweep = Sweep(kit["width"], kit["height"], kit["mines"], board)
    for _ in replay(sweep, logged):
        pass
    if sweep.status is not SweepStatus.WON:
        _fail("replay", f"the log does not win the board (it ends {sweep.status.value})")
    result = kit["result"]
    if sweep.clicks != result["clicks"]:
        _fail("replay", f"the log has {sweep.clicks} clicks, the result says {result['clicks']}")
    if result["nf"] != (not any(m["action"] == "flag" for m in kit["moves"])):
        _fail("replay", "the result's nf does not match the log's flags")
    time_ms = max(0, logged[-1].t_ms)
    if time_ms != result["time_ms"]:
        stated = result["time_ms"]
        _fail("time", f"the log's last move is at {time_ms} ms, the result says {stated}")
    value = bbbv(board)
    if value != result["bbbv"]:
        _fail("bbbv", f"the board's 3BV is {value}, the result says {result['bbbv']}")
    rate = value / (time_ms / 1000) if time_ms else 0.0
    if abs(rate - result["bbbv_per_s"]) > 1e-6:
        _fail("bbbv_per_s", f"3BV/s is {rate:.6f}, the result says {result['bbbv_per_s']}")
    return time_ms, value, rate


def check_signature(kit: dict[str, Any], keys: list[dict[str, Any]]) -> str:
    """The signature over the canonical kit, with a published key valid at `confirmed_at`."""
    signature = kit.get("signature") or {}
    if signature.get("alg") != "Ed25519":
        _fail("signature", "the kit is not signed with Ed25519")
    key = next((k for k in keys if k["key_id"] == signature.get("key_id")), None)
    if key is None:
        _fail("signature", f"no published key {signature.get('key_id')!r}")
    confirmed = _moment(kit["confirmed_at"])
    valid_to = key.get("valid_to")
    if confirmed < _moment(key["valid_from"]) or (valid_to and confirmed >= _moment(valid_to)):
        _fail("signature", f"key {key['key_id']} was not valid when the record was confirmed")
    public = Ed25519PublicKey.from_public_bytes(_b64(key["public_key"]))
    try:
        public.verify(_b64(signature["sig"]), canonical_json(kit))
    except (InvalidSignature, ValueError):
        _fail("signature", "the signature does not match the kit")
    return key["key_id"]


def verify(kit: dict[str, Any], keys: list[dict[str, Any]]) -> Verified:
    """Every check in order; the first that fails raises KitRejected naming it."""
    check_commitment(kit)
    try:
        board = rebuild_board(kit)
    except (ValueError, TypeError) as exc:
        raise KitRejected("board", str(exc)) from None
    time_ms, value, rate = check_replay(kit, board)
    key_id = check_signature(kit, keys)
    return Verified(kit["player"], time_ms, value, rate, key_id)
