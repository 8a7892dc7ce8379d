"""A synchronous step held until the test lets it go: the database slow to answer, so a test
can cancel the coroutine awaiting it after the call and before the commit."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest

HOLD_S = 5  # a test that never releases the step does not hang the thread for ever


class HeldStep:
    """`owner.name` replaced, for the test, by a call that waits for `release()` first."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, owner: Any, name: str) -> None:
        self.reached, self.released = threading.Event(), threading.Event()
        step = getattr(owner, name)

        def held(*args: Any, **kwargs: Any) -> Any:
            self.reached.set()
            self.released.wait(HOLD_S)
            return step(*args, **kwargs)

        monkeypatch.setattr(owner, name, held)

    async def until_reached(self) -> None:
        """Wait, off the event loop, until a caller is inside the step."""
        await asyncio.to_thread(self.reached.wait, HOLD_S)

    def release(self) -> None:
        self.released.set()
