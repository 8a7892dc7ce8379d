"""Counting under a lock: a count per client address (its sign-ups, reports, upcoming arenas)
is read and then written, so two workers serving one address at the same moment must take
turns, or both read "2 of 3" and both write the third."""

from __future__ import annotations

from django.db import connection


def address_lock(name: str) -> None:
    """Hold a lock on `name` until the current transaction ends: PostgreSQL's advisory lock,
    which every worker's connection shares (SQLite writes one transaction at a time anyway).
    Call it inside `transaction.atomic`, before the count it guards."""
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", [name])
