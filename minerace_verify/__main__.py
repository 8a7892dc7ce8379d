"""`python -m minerace_verify KIT.json [--keys KEYS.json]`: check a record's kit; exit 0 and say
what it proves, or exit 1 and say which check failed (docs/protocol.md 9.3). Without --keys,
the key is the one the kit's signature names (`public_key`, `valid_from`, `valid_to`): compare it
with the server's GET /api/records/keys/, which --keys checks for you."""

from __future__ import annotations

import argparse
import json
import sys

from minerace_verify.checks import KitRejected, verify


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m minerace_verify", description=__doc__)
    parser.add_argument("kit")
    parser.add_argument("--keys", help="GET /api/records/keys/ saved as a file")
    args = parser.parse_args(argv)
    with open(args.kit, encoding="utf-8") as file:
        kit = json.load(file)
    if args.keys:
        with open(args.keys, encoding="utf-8") as file:
            keys = json.load(file)["keys"]
    else:
        signature = kit.get("signature") or {}
        keys = [{"key_id": signature.get("key_id"), **signature.get("key", {})}]
    try:
        found = verify(kit, keys)
    except KitRejected as rejected:
        print(f"REJECTED: {rejected}")
        return 1
    except (KeyError, TypeError, ValueError) as broken:
        print(f"REJECTED: format: the kit is not well formed ({broken!r})")
        return 1
    print(f"OK: {found.player} won in {found.time_ms} ms, 3BV {found.bbbv}, "
          f"{found.bbbv_per_s:.3f} 3BV/s; signed with key {found.key_id}")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
