"""Inputs of open server bugs and limitations the fuzzer found, pinned by strict xfails.

The fuzz tests pass such inputs by (`hypothesis.assume`), so CI stays green on everything else
while the bug is open. Whoever fixes one removes its xfail marker and its predicate here.
"""

from __future__ import annotations

from typing import Any


def http(
    path: str,
    body: Any,
    *,
    postgres: bool = False,
    daphne: bool = False,
    method: str = "GET",
    content_type: bytes | None = None,
    raw_body: bytes = b"",
) -> bool:
    """True for a request that hits an open HTTP bug.

    `path` is the decoded path, `body` the parsed JSON body (or None); `postgres` and `daphne`
    say what serves it (the in-process tests run SQLite and no HTTP server).
    """
    # test_a_post_labelled_multipart_gets_a_json_415_on_daphne: Twisted parses the form itself.
    return (
        daphne
        and method == "POST"
        and bool(raw_body)
        and (content_type or b"").lower().startswith(b"multipart/form-data")
    )
