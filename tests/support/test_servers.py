"""A test server whose free port another process took before it could listen there: the start
is not fooled by the stranger answering on that port, and moves to another free port.

free_port() probes a port and lets it go; on a machine where other test runs start servers
too, one of theirs may bind it first. Here a stranger takes the port on purpose."""

from __future__ import annotations

import shutil
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from tests.support.servers import Daphne, RedisServer, base_env, listens, migrated_sqlite_template
from tests.support.waiting import wait_until


class AnswersEverything(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(b'{"games": []}')

    def log_message(self, *args) -> None:
        pass


@contextmanager
def stranger() -> Iterator[int]:
    """Another process's server on a port (in this process, which the worker is not)."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), AnswersEverything)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()


def test_a_daphne_whose_port_was_taken_listens_on_another(tmp_path):
    shutil.copyfile(migrated_sqlite_template(), tmp_path / "db.sqlite3")
    env = base_env(DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}")
    with stranger() as taken:
        worker = Daphne(env, tmp_path / "daphne.log", port=taken)
        try:
            worker.start()
            assert worker.port != taken
            assert listens(worker.process.pid, worker.port)
            assert "Address already in use" in worker.log_text()  # it did try the taken one
            assert worker.process.poll() is None
        finally:
            worker.stop()


def test_a_private_redis_whose_port_was_taken_listens_on_another(tmp_path, needs_redis):
    with stranger() as taken:
        server = RedisServer(tmp_path)
        server.port = taken
        try:
            server.start()
            assert server.port != taken and listens(server.process.pid, server.port)
            assert server.process.poll() is None
        finally:
            server.stop()
    # Stopped and started again, it keeps its port (tests of outages reconnect to it).
    port = server.port
    try:
        server.start()
        assert server.port == port
        wait_until(lambda: listens(server.process.pid, port), message="redis to listen again")
    finally:
        server.stop()
