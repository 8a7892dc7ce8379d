"""This worker's identity, written on the leases it holds (connections, seekers, bot seats)."""

from __future__ import annotations

import os
import secrets
import socket

# Host, process and a random tail: a restarted process with a reused pid is another worker.
WORKER = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"
