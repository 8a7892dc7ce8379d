"""The database and Redis settings for several hosts: a libpq host list, Sentinel shards, and
the defaults that leave one host (or none) as before."""

import pytest
from django.core.exceptions import ImproperlyConfigured

from config.services_env import database, postgres_failover_options, redis_hosts

FAILOVER_URL = (
    "postgresql://postgres@10.77.0.31:5432,10.77.0.32:5433/minerace?target_session_attrs=read-write"
)


def test_a_host_list_goes_to_libpq_as_its_own_comma_lists():
    entry = database(FAILOVER_URL)
    assert entry["ENGINE"] == "django.db.backends.postgresql"
    assert (entry["NAME"], entry["USER"], entry["PASSWORD"]) == ("minerace", "postgres", "")
    assert (entry["HOST"], entry["PORT"]) == ("10.77.0.31,10.77.0.32", "5432,5433")
    assert entry["OPTIONS"] == {"target_session_attrs": "read-write"}


def test_a_host_list_without_ports_uses_postgres_s_own():
    entry = database("postgres://app:s%40cret@a,b/game")
    assert (entry["HOST"], entry["PORT"]) == ("a,b", "5432,5432")
    assert (entry["USER"], entry["PASSWORD"]) == ("app", "s@cret")


def test_one_host_is_parsed_as_before():
    assert database("postgres://u@db:5432/x")["HOST"] == "db"
    assert database("sqlite:////tmp/a.sqlite3")["ENGINE"] == "django.db.backends.sqlite3"


def test_a_host_list_is_for_postgres_only():
    with pytest.raises(ImproperlyConfigured):
        database("mysql://u@a,b/x")


def test_failover_options_bound_a_dead_host_and_keep_what_the_url_said():
    entry = database(FAILOVER_URL + "&connect_timeout=7")
    postgres_failover_options(entry)
    assert entry["OPTIONS"]["connect_timeout"] == "7"
    assert entry["OPTIONS"]["tcp_user_timeout"] == 2000
    assert entry["CONN_HEALTH_CHECKS"] is True


def test_a_pool_over_a_host_list_asks_its_hosts_side_by_side():
    from config.pg_hosts import PrimaryFirst

    listed, single = database(FAILOVER_URL), database("postgres://u@db:5432/x")
    for entry in (listed, single):
        entry.setdefault("OPTIONS", {})["pool"] = {"max_size": 4}
        postgres_failover_options(entry)
    assert listed["OPTIONS"]["pool"]["connection_class"] is PrimaryFirst
    assert "connection_class" not in single["OPTIONS"]["pool"]


def test_sentinel_shards_make_one_host_entry_per_master_name():
    hosts = redis_hosts("redis://ignored:6379/0", "10.0.0.1:26379, 10.0.0.2:26379", "s0,s1")
    assert [h["master_name"] for h in hosts] == ["s0", "s1"]
    assert all(h["sentinels"] == [("10.0.0.1", 26379), ("10.0.0.2", 26379)] for h in hosts)
    assert hosts[0]["sentinel_kwargs"]["socket_connect_timeout"] > 0


def test_without_sentinels_redis_url_alone_or_nothing():
    assert redis_hosts("redis://r:6379/0", "", "") == ["redis://r:6379/0"]
    assert redis_hosts("", "", "") == []


@pytest.mark.parametrize(
    ("sentinels", "shards"),
    [("10.0.0.1:26379", ""), ("", "s0"), ("10.0.0.1", "s0"), ("10.0.0.1:26379", "s0,s0")],
)
def test_half_a_sentinel_setting_is_a_clear_error(sentinels, shards):
    with pytest.raises(ImproperlyConfigured):
        redis_hosts("", sentinels, shards)
