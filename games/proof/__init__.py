"""Proof of a result (docs/protocol.md 9.3): a winner's verification kit, signed with the
server's record key, and the public keys that check it (minerace_verify, at the repository's
top, checks a kit with the standard library, `cryptography` and the pure engine).

keys.py   the record keys from the settings: the one that signs, and every one published
kits.py   a won game's kit: seed, commitment, log with receive times, result, screening, EVF
views.py  GET /api/records/keys/
"""
