"""The bytes a kit is signed over (docs/protocol.md 9.3): the kit without `signature` as JSON,
keys sorted, no whitespace, UTF-8, integers as integers."""

from __future__ import annotations

import json
from typing import Any


def canonical_json(kit: dict[str, Any]) -> bytes:
    unsigned = {key: value for key, value in kit.items() if key != "signature"}
    text = json.dumps(unsigned, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return text.encode("utf-8")
