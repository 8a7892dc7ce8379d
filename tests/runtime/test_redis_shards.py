"""Where a key of the game's own lives among the Redis shards: the channel layer's placement,
by the entity the key belongs to."""

from channels_redis.utils import _consistent_hash
from django.test import override_settings
from hypothesis import given
from hypothesis import strategies as st

from games.runtime.redis_shards import by_shard, shard_of


@given(st.text(), st.integers(min_value=1, max_value=64))
def test_a_tag_is_placed_as_the_channel_layer_places_a_name(tag, shards):
    assert shard_of(tag, shards) == _consistent_hash(tag, shards)


@given(st.text(), st.integers(min_value=1, max_value=64))
def test_every_tag_has_a_shard_in_range(tag, shards):
    assert 0 <= shard_of(tag, shards) < shards


def test_two_shards_both_take_keys():
    placed = [shard_of(f"player-{i}", 2) for i in range(1000)]
    assert 400 < placed.count(0) < 600


def test_examples_of_the_placement():
    # crc32("alice") & 0xFFF = 0xC47: the second half of two; crc32("bob") & 0xFFF = 0x140.
    assert (shard_of("alice", 2), shard_of("bob", 2), shard_of("alice", 1)) == (1, 0, 0)


@given(st.lists(st.text(max_size=8), max_size=40))
def test_by_shard_groups_every_position_once_with_its_shard(tags):
    with override_settings(REDIS_HOSTS=["redis://a", "redis://b", "redis://c"]):
        grouped = by_shard(tags)
    assert sorted(p for ps in grouped.values() for p in ps) == list(range(len(tags)))
    for shard, positions in grouped.items():
        assert all(shard_of(tags[p], 3) == shard for p in positions)
