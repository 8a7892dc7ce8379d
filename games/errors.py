"""The one application error: a protocol code, a message for people, and the field at fault."""

from __future__ import annotations


class ServiceError(Exception):
    """A refused request; the edge turns it into a JSON error or an `error` frame."""

    def __init__(self, code: str, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.field = field
