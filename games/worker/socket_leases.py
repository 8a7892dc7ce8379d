"""The socket-lease pass: renews the leases of this worker's open sockets in Redis, so a worker
killed with -9 stops holding its clients' places once they lapse (games.limits.sockets)."""

from __future__ import annotations

from django.conf import settings

from games.limits.sockets import renew
from games.runtime.periodic import Pass

PASS = Pass(
    "socket-leases",
    lambda: settings.MINERACE["PRESENCE_INTERVAL_S"],
    renew,
    frozenset({"game", "match", "tournament"}),
)
