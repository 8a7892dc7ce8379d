"""Hostile HTTP requests for every /api/ route of docs/openapi.yaml: any method, any path
parameter, bodies of any JSON value, almost-JSON, deep nesting, huge numbers, NaN, lone
surrogates, bytes that are not UTF-8, any Content-Type and Content-Length, hostile queries.

Placeholders (`<solo>`, `<finished>`, ...) stand for real ids, which the test fills in.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from hypothesis import strategies as st

from tests.fuzz.edge_http import spec
from tests.fuzz.strategies import (
    GARBAGE_TEXT,
    JSON_VALUES,
    TEXT,
    invalid_utf8,
    json_text_of,
    wrong_types,
)

# The routes of docs/openapi.yaml (tests/fuzz/test_openapi_file.py holds it to games/urls.py),
# each as its segments with `{parameter}` placeholders.
ROUTES = [path.strip("/").split("/")[1:] for path in spec()["paths"]]
METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "TRACE", "PROPFIND"]
CONTENT_TYPES = [
    None,
    b"application/json",
    b"application/json; charset=utf-16",
    b"text/plain",
    b"application/x-www-form-urlencoded",
    b"multipart/form-data; boundary=xyz",
    b"multipart/form-data",
    b"\xff/\xfe",
]
# Every query parameter of docs/openapi.yaml, and one no route reads.
QUERY_KEYS = ["status", "period", "ranking", "variant", "preset", "mode", "result", "before",
              "player", "format", "id"]  # fmt: skip
QUERY_VALUES = ["lobby", "running", "all", "week", "day", "time", "bbbv_per_s", "classic",
                "no_guess", "", "LOBBY", "lobby ", "null", "beginner", "solo", "race", "won",
                "lost", "dnf", "0", "1", "-1", "99999999999999999999", "evf",
                "<player>"]  # fmt: skip
CREATE_FIELDS = {
    "mode": ["solo", "race", None],
    "preset": ["beginner", "intermediate", "expert", None],
    "width": [5, 9, 100, 101, 4, None],
    "height": [5, 9, 100, 101, 4, None],
    "mines": [1, 10, 91, 92, 0, 9991, None],
    "max_players": [2, 16, 1, 17, None],
    "seed": ["minerace", "x" * 64, "x" * 65, "", None],
    "no_guess": [True, False, None],
    "bot": ["relaxed", "steady", "quick", "nobody", None],
}


def encode(segment: str) -> str:
    return quote(segment, safe="", errors="surrogatepass")


segments = st.one_of(
    st.from_regex(r"[A-Za-z0-9_-]{1,32}", fullmatch=True),
    st.sampled_from(["beginner", "expert", "alice", "ALICE", ".", "..", "%", "%00", "a b"]),
    TEXT.filter(bool),
)
placeholders = {
    "{game_id}": st.one_of(st.sampled_from(["<solo>", "<race>", "<finished>"]), segments),
    "{day}": st.one_of(
        st.sampled_from(["<today>", "2001-01-01", "9999-12-31", "0000-00-00", "20261123", "-"]),
        st.from_regex(r"[0-9-]{1,10}", fullmatch=True),
        segments,
    ),
    "{preset}": st.one_of(
        st.sampled_from(["beginner", "intermediate", "expert"]),
        st.from_regex(r"[a-z]{1,17}", fullmatch=True),
        segments,
    ),
    "{record_id}": st.one_of(st.from_regex(r"[0-9]{1,19}", fullmatch=True), segments),
    "{name}": st.one_of(st.just("alice"), segments, st.text(min_size=60, max_size=70)),
}


@st.composite
def paths(draw) -> str:
    """A percent-encoded path under /api/: a route with its parameters, or anything."""
    if draw(st.integers(0, 5)) == 0:
        parts = draw(st.lists(segments, max_size=4))
    else:
        route = draw(st.sampled_from(ROUTES))
        parts = [draw(placeholders[p]) if p in placeholders else p for p in route]
    slash = draw(st.sampled_from(["/", "/", "/", "", "//"]))
    return "/api/" + "/".join(encode(p) for p in parts) + slash


@st.composite
def queries(draw) -> bytes:
    pairs = draw(
        st.lists(
            st.tuples(
                st.one_of(st.sampled_from(QUERY_KEYS), TEXT),
                st.one_of(st.sampled_from(QUERY_VALUES), TEXT),
            ),
            max_size=4,
        )
    )
    text = "&".join(f"{encode(k)}={encode(v)}" for k, v in pairs)
    junk = draw(st.sampled_from(["", "", "", "&", "%", "%zz", "%ff", "=", ";a=b", "&&=&", "+"]))
    return (text + junk).encode("ascii")


@st.composite
def create_bodies(draw) -> dict[str, Any]:
    """A creation body close to a valid one, with some fields of the wrong type."""
    fields = draw(st.lists(st.sampled_from(sorted(CREATE_FIELDS)), unique=True, max_size=6))
    body = {field: draw(wrong_types(*CREATE_FIELDS[field])) for field in fields}
    extra = draw(st.dictionaries(TEXT, JSON_VALUES, max_size=2))
    return {**extra, **body}


bodies = st.one_of(
    st.just(b""),
    json_text_of(create_bodies()).map(lambda text: text.encode("utf-8")),
    json_text_of(JSON_VALUES).map(lambda text: text.encode("utf-8")),
    GARBAGE_TEXT.map(lambda text: text.encode("utf-8", "surrogatepass")),
    invalid_utf8(),
    st.integers(16 * 1024 - 2, 20 * 1024).map(lambda n: b'{"a": "' + b"x" * n + b'"}'),
)


@dataclass
class Garbage:
    method: str
    path: str
    query: bytes
    body: bytes
    content_type: bytes | None
    length: str  # what Content-Length says


garbage = st.builds(
    Garbage,
    method=st.sampled_from(METHODS),
    path=paths(),
    query=queries(),
    body=bodies,
    content_type=st.sampled_from(CONTENT_TYPES),
    length=st.sampled_from(["right", "right", "none", "huge", "small", "junk"]),
)


def parsed(body: bytes) -> Any:
    try:
        return json.loads(body.decode("utf-8"))
    except (ValueError, UnicodeDecodeError, RecursionError):
        return None


def fill(g: Garbage, known: dict[str, str]) -> tuple[str, bytes]:
    """The request's path and query with each placeholder replaced by its real value."""
    path, query = g.path, g.query
    for placeholder, value in known.items():
        path = path.replace(encode(placeholder), value)
        query = query.replace(encode(placeholder).encode(), value.encode())
    return path, query
