"""Log records name the game and player bound to the task that logs them."""

import asyncio
import io
import logging

import pytest
from asgiref.sync import sync_to_async
from django.conf import settings

from games.ops.logcontext import LogContextFilter, bind_log_context


@pytest.fixture(autouse=True)
def _unbind():
    yield
    bind_log_context(None, None)


@pytest.fixture
def lines():
    """A handler built like the console one in settings; yields a function returning its lines."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.addFilter(LogContextFilter())
    handler.setFormatter(logging.Formatter(settings.LOGGING["formatters"]["context"]["format"]))
    logger = logging.getLogger("tests.ops.logcontext")
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    yield lambda: stream.getvalue().splitlines()
    logger.removeHandler(handler)


log = logging.getLogger("tests.ops.logcontext")


def test_a_record_after_binding_carries_the_ids(lines):
    bind_log_context("g4Me1d", "pl4yer")
    log.info("moved")
    assert lines()[-1].endswith("INFO tests.ops.logcontext game=g4Me1d player=pl4yer moved")


def test_records_without_a_binding_still_format(lines):
    log.warning("no game here")
    bind_log_context("g4Me1d", None)
    log.warning("a spectator before hello")
    assert lines()[0].endswith("game=- player=- no game here")
    assert lines()[1].endswith("game=g4Me1d player=- a spectator before hello")


def test_explicit_extra_fields_win(lines):
    bind_log_context("g4Me1d", "pl4yer")
    log.info("reaped", extra={"game": "other"})
    assert lines()[-1].endswith("game=other player=pl4yer reaped")


async def test_each_task_logs_its_own_ids_also_through_sync_code(lines):
    def sync_service(message):
        log.info(message)

    async def connection(game, player):
        bind_log_context(game, player)
        await asyncio.sleep(0)  # let the other connection bind in between
        await sync_to_async(sync_service)(f"from {player}")

    await asyncio.gather(connection("gameA", "alice"), connection("gameB", "bob"))
    assert sorted(line.split(" ", 3)[3] for line in lines()) == [
        "tests.ops.logcontext game=gameA player=alice from alice",
        "tests.ops.logcontext game=gameB player=bob from bob",
    ]


def test_the_console_handler_in_settings_adds_the_fields():
    handlers = logging.getLogger().handlers
    assert any(isinstance(f, LogContextFilter) for handler in handlers for f in handler.filters)
