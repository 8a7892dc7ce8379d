"""The Prometheus metrics of a worker: the objects the move pipeline, the consumers and the API
increment, and a collector that counts games by status at scrape time.

Each Daphne worker keeps its own registry (prometheus_client's default one, which also carries
the process and GC metrics), so Prometheus scrapes every worker's port; summing across workers
is the query's job. Import the objects from here, for example
`MOVES.labels(action="reveal").inc()` or `with MOVE_SECONDS.time(): ...`.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator

from django.db import DatabaseError
from django.db.models import Count
from prometheus_client import REGISTRY, Counter, Gauge, Histogram
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

from games.engine.moves import MOVE_TYPES
from games.models import Game, GameStatus

log = logging.getLogger(__name__)

SOCKET_ROLES = ("none", "player", "spectator")

MOVES = Counter("minerace_moves_total", "Moves accepted", ["action"])
# 1-2-5 steps: the answer p99 measured on two workers is ~18 ms, the alert threshold 50 ms
# (docs/deploy.md), both near a bucket edge so the quantile estimate is sharp there.
MOVE_SECONDS = Histogram(
    "minerace_move_seconds",
    "Time from a move frame to its answer",
    buckets=(0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0),
)
SOCKETS = Gauge("minerace_sockets_open", "Open WebSockets", ["role"])
ERRORS = Counter("minerace_errors_total", "Error frames and API errors sent", ["code"])
PUBLISH_FAILURES = Counter("minerace_publish_failures_total", "Events the channel layer refused")
# A game's events kept in the worker (every member local) or published to Redis (local_layer).
GROUP_SENDS = Counter(
    "minerace_layer_game_sends_total", "Game events the channel layer sent", ["path"]
)
OUTBOX_PENDING = Gauge("minerace_outbox_pending", "Committed events waiting to be published")
# Quick match: queue lengths and waits go here when matchmaking exists.

# Known label values start at 0, so a rate() over them has a series from the first scrape.
for _action in MOVE_TYPES:
    MOVES.labels(action=_action)
for _path in ("local", "published"):
    GROUP_SENDS.labels(path=_path)
for _role in SOCKET_ROLES:
    SOCKETS.labels(role=_role)


class GamesByStatus(Collector):
    """`minerace_games{status=...}` from one GROUP BY at scrape time; a failing query leaves the
    family out of that scrape (and logs why) instead of failing the whole scrape."""

    def describe(self) -> Iterator[GaugeMetricFamily]:
        # Without describe() the registry would call collect(), a query, at registration.
        yield GaugeMetricFamily("minerace_games", "Games by status", labels=["status"])

    def collect(self) -> Iterator[GaugeMetricFamily]:
        try:
            rows = Game.objects.values_list("status").annotate(count=Count("id")).order_by()
            counts = dict(rows)
        except DatabaseError as exc:
            log.warning("metrics: counting games by status failed: %r", exc)
            return
        family = GaugeMetricFamily("minerace_games", "Games by status", labels=["status"])
        for status in GameStatus:
            family.add_metric([status.value], counts.pop(status.value, 0))
        for status, count in counts.items():  # a status the enum no longer knows
            family.add_metric([status], count)
        yield family


GAMES_BY_STATUS = GamesByStatus()
REGISTRY.register(GAMES_BY_STATUS)
