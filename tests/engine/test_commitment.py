"""The salted seed commitment of docs/protocol.md 1.7, and its vector."""

import hashlib

from games.engine.commitment import commitment


def test_protocol_vector():
    assert commitment("minerace", "00112233445566778899aabbccddeeff") == (
        "729abfb6157b6449c633b0c31a14fad276f5e72ad4270bb4f94f470210842d57"
    )


def test_the_salt_changes_the_commitment_and_the_bare_seed_hash_is_not_it():
    assert commitment("friday", "a" * 32) != commitment("friday", "b" * 32)
    assert commitment("friday", "a" * 32) != hashlib.sha256(b"friday").hexdigest()
