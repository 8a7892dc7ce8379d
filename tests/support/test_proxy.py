"""The proxy helper changes only the lines of deploy/nginx/minerace.conf marked `# bench:`, and
the bench's profile groups sampled stacks into the categories of issue 23.1."""

from tests.load.probes import categorize, group_samples
from tests.support.proxy import SITE_CONFIG, site_config


def test_site_config_sets_the_ports_and_keeps_the_rest():
    colocated = site_config([9101, 9102, 9103], 9100, colocate=True)
    assert "hash $minerace_game consistent;" in colocated
    assert [line.strip() for line in colocated.splitlines() if "server 127.0.0.1:" in line] == [
        f"server 127.0.0.1:{port} max_fails=0;" for port in (9101, 9102, 9103)
    ]
    assert "listen 127.0.0.1:9100;" in colocated
    assert "8001" not in colocated and "listen 80;" not in colocated
    unchanged = [line for line in SITE_CONFIG.read_text().splitlines() if "# bench:" not in line]
    assert all(line in colocated.splitlines() for line in unchanged)


def test_without_colocation_the_hash_is_off_and_nginx_round_robins():
    spread = site_config([9101, 9102], 9100, colocate=False)
    assert "hash $minerace_game" not in spread
    assert "$minerace_game" in spread  # the map stays: harmless without the hash


def test_stacks_fall_into_the_categories_innermost_first():
    loop = "run_forever (/py/asyncio/base_events.py:1)"
    tcp = "writeSomeData (/venv/twisted/internet/tcp.py:2)"
    step = "move_step (/repo/games/moves/step.py:3)"
    sql = "execute (/venv/psycopg/cursor.py:4)"
    redis = "publish (/venv/channels_redis/pubsub.py:5)"
    aio_write = "write (/py/asyncio/selector_events.py:6)"
    assert categorize(f"{loop};{tcp}") == "socket writes (Twisted)"
    assert categorize(f"{loop};{redis};{aio_write}") == "socket writes (asyncio)"
    assert categorize(f"{loop};{redis}") == "Redis"
    assert categorize(f"{loop};{step}") == "move step"
    assert categorize(f"{loop};{sql}") == "database"
    assert categorize(loop) == "event loop"
    grouped = group_samples(f"{loop};{tcp} 3\n{loop} 1\n")
    assert grouped == {
        "busy_samples": 4,
        "share_pct": {"socket writes (Twisted)": 75.0, "event loop": 25.0},
    }
