import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.engine.codec import SnapshotError, decode, encode


@given(st.integers(1, 100), st.integers(1, 100), st.randoms(use_true_random=False))
def test_round_trip(width, height, rng):
    state = bytearray(rng.choice(b"\x00\x00\x00\x01\x02\x03") for _ in range(width * height))
    assert decode(encode(width, height, state), width, height) == state


def test_an_expert_board_packs_small():
    state = bytearray(30 * 16)
    state[:200] = b"\x01" * 200
    state[300] = 2
    assert len(encode(30, 16, state)) < 60


@pytest.mark.parametrize(
    "data",
    [b"", b"\x02\x00\x05\x00\x05", b"\x01\x00\x05\x00\x05garbage", b"\x01\x00\x06\x00\x05"],
)
def test_bad_snapshots_are_refused(data):
    with pytest.raises(SnapshotError):
        decode(data, 5, 5)


def test_out_of_range_state_is_refused():
    import zlib

    data = b"\x01\x00\x01\x00\x01" + zlib.compress(b"\x07")
    with pytest.raises(SnapshotError):
        decode(data, 1, 1)
