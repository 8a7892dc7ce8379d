"""Password rules of our own, beside Django's (AUTH_PASSWORD_VALIDATORS in config/settings.py):
the sign-up page, the API and a password change all run the same list."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError

MAX_PASSWORD_CHARS = 128


class MaximumLengthValidator:
    """At most 128 characters (docs/protocol.md 3): every login hashes what it is sent, so an
    unbounded password is a cheap way to make a worker spend its CPU."""

    def __init__(self, max_length: int = MAX_PASSWORD_CHARS) -> None:
        self.max_length = max_length

    def validate(self, password: str, user: Any = None) -> None:
        if len(password) > self.max_length:
            raise ValidationError(
                f"This password is too long. It must contain at most {self.max_length} characters.",
                code="password_too_long",
            )

    def get_help_text(self) -> str:
        return f"Your password must contain at most {self.max_length} characters."
