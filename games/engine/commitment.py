"""The seed commitment (docs/protocol.md 1.7): published at creation, checkable after the end.

A salt drawn by the server is hashed in front of the seed, so a short chosen seed (`friday`)
cannot be found from its commitment with a word list before the race; the salt is disclosed
with the seed once the game is finished. The board never depends on the salt.
"""

from __future__ import annotations

import hashlib


def commitment(seed: str, salt: str) -> str:
    """hex(SHA-256(utf8(salt) || ":" || utf8(seed)))."""
    return hashlib.sha256(salt.encode("utf-8") + b":" + seed.encode("utf-8")).hexdigest()
