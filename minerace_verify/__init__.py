"""A record's verification kit, checked by anyone (docs/protocol.md 9.3): standard library,
`cryptography` and the game's pure engine (games/engine: standard library only), no Django.

    python -m minerace_verify KIT.json [--keys KEYS.json]

canonical.py  the canonical JSON a kit is signed over
checks.py     each check of a kit, in order, and which one failed
__main__.py   the command line
"""
