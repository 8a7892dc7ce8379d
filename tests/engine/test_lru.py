"""BoundedCache: eviction by bytes in LRU order, oversize values, threads; the engine's caches."""

from __future__ import annotations

import gc
import random
import sys
import threading
from collections import OrderedDict

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import Board, generate_board
from games.engine.board import NEIGHBOUR_CACHE
from games.engine.generation import BOARD_CACHE, board_bytes
from games.engine.lru import BoundedCache


def text_cache(max_bytes: int) -> BoundedCache[str, str]:
    """Values are strings that cost their length."""
    return BoundedCache(max_bytes, len, "test")


def held(cache: BoundedCache, keys) -> dict:
    """What the cache holds among keys (get moves each to the recent end; order is lost)."""
    return {key: value for key in keys if (value := cache.get(key)) is not None}


def test_eviction_goes_by_bytes_not_entries():
    cache = text_cache(10)
    cache.put("a", "aaaa")
    cache.put("b", "bbbb")
    assert (len(cache), cache.bytes_used) == (2, 8)
    cache.put("c", "cc")  # 10 bytes: exactly the budget, nothing goes
    assert (len(cache), cache.bytes_used) == (3, 10)
    cache.put("d", "dddddd")  # needs 6: a and b go, c stays
    assert held(cache, "abcd") == {"c": "cc", "d": "dddddd"}
    assert cache.bytes_used == 8


def test_the_least_recently_used_goes_first():
    cache = text_cache(9)
    cache.put("a", "aaa")
    cache.put("b", "bbb")
    cache.put("c", "ccc")
    assert cache.get("a") == "aaa"  # a is now the most recent; b the least
    cache.put("d", "ddd")
    assert cache.get("b") is None
    assert held(cache, "acd") == {"a": "aaa", "c": "ccc", "d": "ddd"}


def test_put_again_replaces_the_value_and_its_size():
    cache = text_cache(10)
    cache.put("a", "aaaaaa")
    cache.put("a", "aa")
    assert (cache.get("a"), cache.bytes_used, len(cache)) == ("aa", 2, 1)


def test_a_value_bigger_than_the_budget_is_not_kept_and_evicts_nothing():
    cache = text_cache(5)
    cache.put("a", "aa")
    cache.put("big", "bbbbbb")
    assert cache.get("big") is None
    assert (cache.get("a"), cache.bytes_used) == ("aa", 2)
    cache.put("a", "aaaaaaa")  # the older, smaller value under that key is stale: it goes too
    assert (cache.get("a"), cache.bytes_used, len(cache)) == (None, 0, 0)


def test_pop_and_clear():
    cache = text_cache(10)
    cache.put("a", "aaa")
    cache.put("b", "bb")
    assert cache.pop("a") == "aaa"
    assert cache.pop("a") is None
    assert (len(cache), cache.bytes_used) == (1, 2)
    cache.clear()
    assert (len(cache), cache.bytes_used, cache.get("b")) == (0, 0, None)


def test_get_or_create_calls_the_factory_only_on_a_miss():
    cache = text_cache(10)
    calls = []

    def factory() -> str:
        calls.append(1)
        return "value"

    assert cache.get_or_create("k", factory) == "value"
    assert cache.get_or_create("k", factory) == "value"
    assert len(calls) == 1
    assert cache.get_or_create("big", lambda: "x" * 11) == "x" * 11  # returned, not kept
    assert cache.get("big") is None


def test_lowering_max_bytes_evicts_down_to_it():
    cache = text_cache(10)
    for key in "abcde":
        cache.put(key, key * 2)
    cache.max_bytes = 5
    assert held(cache, "abcde") == {"d": "dd", "e": "ee"}
    assert cache.bytes_used == 4


def test_a_negative_size_or_budget_is_refused():
    with pytest.raises(ValueError):
        BoundedCache(-1, len)
    cache: BoundedCache[str, int] = BoundedCache(10, lambda value: value)
    with pytest.raises(ValueError):
        cache.put("a", -3)


def test_the_factory_runs_outside_the_lock_and_a_racing_duplicate_yields_the_first_value():
    cache: BoundedCache[str, object] = BoundedCache(100, lambda value: 1)
    both_inside = threading.Barrier(2, timeout=30)  # broken (an error) if one waits on the lock
    created = []

    def factory() -> object:
        value = object()
        created.append(value)
        both_inside.wait()
        return value

    results = []
    threads = [
        threading.Thread(target=lambda: results.append(cache.get_or_create("k", factory)))
        for _ in range(2)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(created) == 2  # both missed and both built
    assert results[0] is results[1]  # but both got the one that was stored first
    assert cache.get("k") is results[0]
    assert (len(cache), cache.bytes_used) == (1, 1)


def test_threads_hammering_the_cache_keep_its_accounting_exact_and_within_budget():
    budget = 500
    cache: BoundedCache[int, tuple[int, int]] = BoundedCache(budget, lambda value: value[1])
    keys = range(40)
    over_budget = []
    errors = []

    def hammer(seed: int) -> None:
        try:
            steps(seed)
        except Exception as exc:  # a thread's error would otherwise be only a warning
            errors.append(exc)

    def steps(seed: int) -> None:
        rng = random.Random(seed)
        for step in range(10_000):
            key = rng.choice(keys)
            value = (seed * 10_000 + step, rng.randrange(0, 120))
            action = rng.randrange(4)
            if action == 0:
                cache.put(key, value)
            elif action == 1:
                cache.get(key)
            elif action == 2:
                cache.pop(key)
            else:
                cache.get_or_create(key, lambda value=value: value)
            if cache.bytes_used > budget:
                over_budget.append(cache.bytes_used)

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as possible, to meet the races
    try:
        threads = [threading.Thread(target=hammer, args=(seed,)) for seed in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(interval)
    assert errors == []
    assert over_budget == []
    values = held(cache, keys)
    assert len(values) == len(cache)
    assert cache.bytes_used == sum(size for _, size in values.values()) <= budget


class Model:
    """The cache's contract written plainly: an ordered dict of key -> (value, size)."""

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self.entries: OrderedDict[int, tuple[object, int]] = OrderedDict()

    def bytes_used(self) -> int:
        return sum(size for _, size in self.entries.values())

    def get(self, key: int) -> object | None:
        if key not in self.entries:
            return None
        self.entries.move_to_end(key)
        return self.entries[key][0]

    def put(self, key: int, value: object, size: int) -> None:
        self.entries.pop(key, None)
        if size > self.max_bytes:
            return
        while self.bytes_used() + size > self.max_bytes:
            self.entries.popitem(last=False)
        self.entries[key] = (value, size)

    def pop(self, key: int) -> object | None:
        entry = self.entries.pop(key, None)
        return None if entry is None else entry[0]

    def get_or_create(self, key: int, value: object, size: int) -> object:
        existing = self.get(key)
        if existing is not None:
            return existing
        self.put(key, value, size)
        return value


operations = st.lists(
    st.tuples(
        st.sampled_from(["put", "get", "pop", "get_or_create"]),
        st.integers(0, 5),
        st.integers(0, 12),
    ),
    max_size=60,
)


@settings(max_examples=300, deadline=None)
@given(max_bytes=st.integers(0, 30), steps=operations)
def test_the_cache_behaves_as_its_model(max_bytes, steps):
    sizes: dict[int, int] = {}  # id of a value -> its size
    cache: BoundedCache[int, object] = BoundedCache(max_bytes, lambda value: sizes[id(value)])
    model = Model(max_bytes)
    values = []  # kept alive so that ids stay unique
    for action, key, size in steps:
        value = object()
        values.append(value)
        sizes[id(value)] = size
        if action == "put":
            cache.put(key, value)
            model.put(key, value, size)
        elif action == "get":
            assert cache.get(key) is model.get(key)
        elif action == "pop":
            assert cache.pop(key) is model.pop(key)
        else:
            assert cache.get_or_create(key, lambda value=value: value) is model.get_or_create(
                key, value, size
            )
        assert (len(cache), cache.bytes_used) == (len(model.entries), model.bytes_used())
        assert cache.bytes_used <= max_bytes


@pytest.fixture
def small_engine_caches():
    """The engine's caches emptied and given small budgets, then put back as they were."""
    budgets = BOARD_CACHE.max_bytes, NEIGHBOUR_CACHE.max_bytes
    BOARD_CACHE.clear()
    NEIGHBOUR_CACHE.clear()
    BOARD_CACHE.max_bytes = 2 * 1024 * 1024
    NEIGHBOUR_CACHE.max_bytes = 4 * 1024 * 1024
    yield
    BOARD_CACHE.max_bytes, NEIGHBOUR_CACHE.max_bytes = budgets
    BOARD_CACHE.clear()
    NEIGHBOUR_CACHE.clear()


def boards_alive() -> int:
    gc.collect()
    return sum(1 for obj in gc.get_objects() if type(obj) is Board)


def test_generate_board_stays_within_its_budget_over_many_distinct_big_boards(
    small_engine_caches,
):
    before = boards_alive()
    for n in range(40):
        board = generate_board(100, 100, 2000, f"many-{n}", (50, 50))
    assert board_bytes(board) > 200_000  # so the 2 MiB budget holds about ten of them
    assert 5 <= len(BOARD_CACHE) <= 10
    assert BOARD_CACHE.bytes_used <= BOARD_CACHE.max_bytes
    del board
    assert boards_alive() - before <= len(BOARD_CACHE)  # nothing else keeps the evicted ones
    recent = generate_board(100, 100, 2000, "many-39", (50, 50))
    assert BOARD_CACHE.get((100, 100, 2000, "many-39", (50, 50))) is recent
    assert BOARD_CACHE.get((100, 100, 2000, "many-0", (50, 50))) is None


def test_boards_of_many_sizes_do_not_pin_neighbour_tables(small_engine_caches):
    boards = [generate_board(100 - n, 100, 10, "sizes", (0, 0)) for n in range(10)]
    assert NEIGHBOUR_CACHE.bytes_used <= NEIGHBOUR_CACHE.max_bytes
    assert len(NEIGHBOUR_CACHE) < 10  # each table is about 1.5 MB: the first ones went
    held_by_boards = [ref for board in boards for ref in gc.get_referents(board)]
    assert not any(isinstance(ref, tuple) for ref in held_by_boards)  # no table among them
    first = boards[0]
    assert sorted(first.neighbours[0]) == [1, 100, 101]  # rebuilt on demand
