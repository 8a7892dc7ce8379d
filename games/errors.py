"""The one application error: a protocol code, a message for people, and the field at fault."""

from __future__ import annotations

from typing import Any


class ServiceError(Exception):
    """A refused request; the edge turns it into a JSON error or an `error` frame.

    `events` are what the refusal itself committed and the edge must deliver (a move refused
    because the race's time is up ends the race there and then). `retry_after_s` goes with
    `rate_limited`: when one more request would be allowed.
    """

    def __init__(
        self,
        code: str,
        message: str,
        field: str | None = None,
        events: list[Any] | None = None,
        retry_after_s: int | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.field = field
        self.events = events or []
        self.retry_after_s = retry_after_s
