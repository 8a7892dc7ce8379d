"""config/pg_hosts.py: a host list's hosts asked side by side, the first that accepts writes
kept, and a promotion under way waited for (the real thing runs in tests/failover's
promotion test and the cluster harness; here psycopg's own connect is replaced by hosts whose
behaviour each test sets)."""

from __future__ import annotations

import threading

import psycopg
import pytest

from config import pg_hosts
from config.pg_hosts import PrimaryFirst, host_attempts

KWARGS = {
    "host": "a,b",
    "port": "5432,5433",
    "dbname": "minerace",
    "target_session_attrs": "read-write",
    "connect_timeout": 2,
    "autocommit": True,
}


class FakeConnection:
    def __init__(self, host: str) -> None:
        self.host, self.closed = host, False

    def close(self) -> None:
        self.closed = True


@pytest.fixture
def hosts(monkeypatch):
    """host name -> a function of the attempt's parameters: returns a connection or raises."""
    behaviour: dict[str, object] = {}
    asked: list[dict] = []

    def connect(cls, conninfo="", **kwargs):
        asked.append(kwargs)
        return behaviour[kwargs["host"]](kwargs)

    monkeypatch.setattr(psycopg.Connection, "connect", classmethod(connect))
    monkeypatch.setattr(pg_hosts, "PROMOTION_POLL_S", 0.01)
    behaviour["asked"] = asked
    return behaviour


def test_each_host_is_an_attempt_of_its_own_with_its_port():
    attempts = host_attempts({"host": "a,b", "port": "1,2", "dbname": "x"})
    assert attempts == [{"host": "a", "port": "1", "dbname": "x"},
                        {"host": "b", "port": "2", "dbname": "x"}]  # fmt: skip
    assert [a["port"] for a in host_attempts({"host": "a,b", "port": "7"})] == ["7", "7"]
    assert host_attempts({"host": "db", "port": "5432"}) == [{"host": "db", "port": "5432"}]
    with pytest.raises(psycopg.ProgrammingError):
        host_attempts({"host": "a,b,c", "port": "1,2"})


def test_a_silent_first_host_does_not_hold_up_the_primary(hosts):
    silent_released, silent_done = threading.Event(), threading.Event()
    late = FakeConnection("a")

    def silent(params):
        silent_released.wait(10)
        silent_done.set()
        return late

    hosts["a"], hosts["b"] = silent, lambda params: FakeConnection("b")
    conn = PrimaryFirst.connect(**KWARGS)
    # Answered while the first host of the list still had not said anything.
    assert conn.host == "b" and not silent_done.is_set()
    asked = {a["host"]: a for a in hosts["asked"]}
    assert asked["b"]["port"] == "5433" and asked["b"]["target_session_attrs"] == "read-write"
    assert asked["b"]["autocommit"] is True
    silent_released.set()
    assert silent_done.wait(5)
    for _ in range(100):  # the late connection is closed by its own thread
        if late.closed:
            break
        threading.Event().wait(0.01)
    assert late.closed


def test_a_promotion_under_way_is_waited_for(hosts):
    refusals = iter(range(3))

    def standby_then_primary(params):
        if next(refusals, None) is not None:
            raise psycopg.OperationalError(
                'connection to server at "b" failed: session is read-only'
            )
        return FakeConnection("b")

    def cut(params):
        raise psycopg.errors.ConnectionTimeout("connection timeout expired")

    hosts["a"], hosts["b"] = cut, standby_then_primary
    assert PrimaryFirst.connect(**KWARGS).host == "b"
    assert [a["host"] for a in hosts["asked"]].count("b") == 4


def test_other_failures_are_raised_at_once_naming_every_host(hosts):
    def refused(params):
        raise psycopg.OperationalError(f"{params['host']}: password authentication failed")

    hosts["a"] = hosts["b"] = refused
    with pytest.raises(psycopg.OperationalError) as raised:
        PrimaryFirst.connect(**KWARGS)
    assert "'a'" in str(raised.value) and "'b'" in str(raised.value)
    assert len(hosts["asked"]) == 2


def test_one_host_is_psycopg_s_own_connect(hosts):
    hosts["db"] = lambda params: FakeConnection("db")
    assert PrimaryFirst.connect(host="db", dbname="x").host == "db"
