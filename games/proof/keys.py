"""The record keys (docs/protocol.md 9.3), from MINERACE["RECORD_KEYS"]: each with its id, its
Ed25519 key (the private seed, base64url, 32 bytes; a retired key may list only its public
key), and its validity. The key that signs is the one valid now with a private seed; a key past
its `valid_to` stays published, so kits it signed still verify."""

from __future__ import annotations

import base64
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from django.conf import settings

from games.errors import ServiceError


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass(frozen=True)
class RecordKey:
    key_id: str
    public: Ed25519PublicKey
    private: Ed25519PrivateKey | None
    valid_from: datetime
    valid_to: datetime | None

    def public_entry(self) -> dict[str, Any]:
        raw = self.public.public_bytes(Encoding.Raw, PublicFormat.Raw)
        return {
            "key_id": self.key_id,
            "alg": "Ed25519",
            "public_key": b64url(raw),
            "valid_from": _iso(self.valid_from),
            "valid_to": _iso(self.valid_to),
        }


def _iso(moment: datetime | None) -> str | None:
    from games.timefmt import iso

    return iso(moment)


def _moment(text: str | None) -> datetime | None:
    return None if not text else datetime.fromisoformat(text.replace("Z", "+00:00"))


def record_keys() -> list[RecordKey]:
    keys = []
    for entry in settings.MINERACE.get("RECORD_KEYS", []):
        private = None
        if entry.get("private_key"):
            private = Ed25519PrivateKey.from_private_bytes(_unb64(entry["private_key"]))
            public = private.public_key()
        else:
            public = Ed25519PublicKey.from_public_bytes(_unb64(entry["public_key"]))
        valid_from = _moment(entry["valid_from"])
        assert valid_from is not None
        keys.append(
            RecordKey(entry["key_id"], public, private, valid_from, _moment(entry.get("valid_to")))
        )
    return keys


def signing_key(now: datetime) -> RecordKey:
    """The key that signs now: valid now, with its private seed."""
    for key in record_keys():
        if (
            key.private is not None
            and key.valid_from <= now
            and (key.valid_to is None or now < key.valid_to)
        ):
            return key
    raise ServiceError("no_record_key", "this server has no record key to sign with")


def published_keys() -> dict[str, Any]:
    """`GET /api/records/keys/`."""
    return {"keys": [key.public_entry() for key in record_keys()]}
