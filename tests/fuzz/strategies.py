"""Hypothesis strategies for hostile input: any JSON value, strings no client should send,
numbers at and past every limit, and bytes that are not JSON at all."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import strategies as st

# Lone surrogates (`"\ud800"` on the wire) are valid JSON escapes but not Unicode scalars:
# encoding them as UTF-8 fails, which is where a careless server crashes.
SURROGATES = st.characters(categories=["Cs"])
NASTY_CHARS = st.sampled_from(
    ["\x00", "\n", "\t", "\u200b", "\u3164", "\u2800", "\ufeff", "\u202e", "\uffff", "%", "/"]
)
CHARS = st.one_of(st.characters(), SURROGATES, NASTY_CHARS)
TEXT = st.text(CHARS, max_size=24)
LONG_TEXT = st.text(CHARS, min_size=25, max_size=300)

BIG_INTS = st.sampled_from([2**31, -(2**31) - 1, 2**53 + 1, 2**63, -(2**63) - 1, 2**64, 10**30])
INTS = st.one_of(st.integers(-3, 120), st.integers(), BIG_INTS)
FLOATS = st.one_of(
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from([0.0, -0.0, 1.0, 3.0, 1.5, 1e308, 5e-324]),
)
SCALARS = st.one_of(st.none(), st.booleans(), INTS, FLOATS, TEXT)

# Any JSON value, nested a few levels (deeper nesting comes as raw text below).
JSON_VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(TEXT, inner, max_size=4)),
    max_leaves=12,
)


def wrong_types(*good: Any) -> st.SearchStrategy[Any]:
    """A field's good values, or a value of any other JSON type."""
    return st.one_of(st.sampled_from(good), JSON_VALUES) if good else JSON_VALUES


def to_json(value: Any, ascii_only: bool) -> str:
    """JSON text; surrogates always go out escaped (a raw one cannot be sent as UTF-8)."""
    try:
        text = json.dumps(value, ensure_ascii=ascii_only)
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        return json.dumps(value)


def _nested(depth: int, opener: str) -> str:
    """Nesting past the parser's recursion limit, mostly still under 4 KiB."""
    closer = {"[": "]", '{"a":': "}"}[opener]
    depth = depth if opener == "[" else depth // 3
    return opener * depth + "0" + closer * depth


def _with_constant(constant: str) -> str:
    return f'{{"type": "reveal", "x": {constant}, "y": 1, "width": {constant}}}'


RAW_CONSTANTS = st.sampled_from(["NaN", "Infinity", "-Infinity", "-NaN", "nan", "inf"]).map(
    _with_constant
)
DEEP = st.builds(_nested, st.integers(50, 2100), st.sampled_from(["[", '{"a":']))
HUGE_NUMBERS = st.integers(300, 5000).map(lambda digits: '{"x": ' + "9" * digits + "}")
ALMOST_JSON = ["", " ", "{", "}", "[", '{"type":', '{"type": "ping"', "'ping'", "{'a': 1}",
               '{"type": "ping"} {"type": "ping"}', "\ufeff{}", '{"a": 01}', '{"a": .5}',
               '{"a": "\\x41"}', '{"a": "\\ud800"}', '{"a": "\\udfff\\ud800"}', "true", "[]",
               "0", "-0", "1e999", '"\\u0000"']  # fmt: skip
BROKEN_JSON = st.one_of(st.text(max_size=60), st.sampled_from(ALMOST_JSON))


def json_text_of(values: st.SearchStrategy[Any]) -> st.SearchStrategy[str]:
    return st.builds(to_json, values, st.booleans())


# Text that is JSON of any kind, or almost JSON, or not at all (all under 4 KiB or near it).
GARBAGE_TEXT = st.one_of(json_text_of(JSON_VALUES), RAW_CONSTANTS, DEEP, HUGE_NUMBERS, BROKEN_JSON)


NOT_UTF8 = [b"\xff", b"\xc3\x28", b'{"seed": "\xed\xa0\x80"}', b"\xfe\xff{}",
            b'{"preset": "beginner"}\x00', b"\x80abc"]  # fmt: skip


def invalid_utf8() -> st.SearchStrategy[bytes]:
    return st.one_of(st.binary(max_size=64), st.sampled_from(NOT_UTF8))
