"""Name rules and skeletons (games.names, PROTOCOL.md 4): which names are one, which are refused."""

import string

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.errors import ServiceError
from games.names import name_clean, name_skeleton

CYRILLIC_A = "\u0430"
LOOK_ALIKES = {  # Latin letter: a Cyrillic letter drawn the same
    "a": "\u0430", "c": "\u0441", "e": "\u0435", "o": "\u043e", "p": "\u0440", "x": "\u0445",
    "y": "\u0443",
}  # fmt: skip


def fullwidth(text: str) -> str:
    return "".join(chr(ord(ch) + 0xFEE0) if "!" <= ch <= "~" else ch for ch in text)


def math_bold(text: str) -> str:
    return "".join(chr(0x1D41A + ord(ch) - ord("a")) for ch in text)


@pytest.mark.parametrize(
    "other",
    ["ALICE", "Alice", CYRILLIC_A + "lice", fullwidth("alice"), math_bold("alice"), "a1ice"],
)
def test_look_alikes_of_alice_are_alice(other):
    assert other != "alice"
    assert name_skeleton(other) == name_skeleton("alice")


@pytest.mark.parametrize(
    ("one", "other"), [("Straße", "STRASSE"), ("élise", "Élise"), ("e\u0301lise", "élise")]
)
def test_case_and_composition_do_not_make_two_names(one, other):
    assert name_skeleton(one) == name_skeleton(other)


@pytest.mark.parametrize(("one", "other"), [("bob", "b0b"), ("alice", "alicia"), ("ann", "anne")])
def test_different_names_stay_apart(one, other):
    assert name_skeleton(one) != name_skeleton(other)


@pytest.mark.parametrize(
    "bad",
    [
        "",
        "   ",
        "x" * 25,
        "\u3164",  # Hangul filler: renders blank
        "\u2800",  # braille blank
        "al\u200bice",  # zero-width space
        "alice\ufe0f",  # variation selector
        "\u00ad",  # soft hyphen
        "\u0301abc",  # a combining mark first
        "a\nb",
        "\ud800",  # a lone surrogate
        None,
        ["alice"],
        42,
    ],
)
def test_invisible_blank_and_malformed_names_are_refused(bad):
    with pytest.raises(ServiceError) as refused:
        name_clean(bad)
    assert refused.value.code == "bad_name"


def test_a_name_is_kept_as_written_after_strip():
    assert name_clean("  Élise Ω  ") == "Élise Ω"
    assert name_clean("x" * 24) == "x" * 24


@given(st.text(alphabet=string.ascii_lowercase, min_size=1, max_size=24), st.data())
def test_cyrillic_look_alike_letters_never_make_a_new_name(name, data):
    swaps = data.draw(st.sets(st.sampled_from(sorted(LOOK_ALIKES))))
    spoof = "".join(LOOK_ALIKES[ch] if ch in swaps else ch for ch in name)
    assert name_skeleton(spoof) == name_skeleton(name)


@given(st.text(alphabet=string.ascii_letters + string.digits, min_size=1, max_size=24))
def test_case_and_fullwidth_never_make_a_new_name(name):
    key = name_skeleton(name)
    assert name_skeleton(name.upper()) == key
    assert name_skeleton(name.lower()) == key
    assert name_skeleton(fullwidth(name)) == key


@given(st.text(max_size=30))
def test_any_text_is_a_clean_name_or_bad_name(text):
    """Whatever a client sends, the answer is a name with a key, or bad_name: never a crash."""
    try:
        name = name_clean(text)
    except ServiceError as refused:
        assert refused.code == "bad_name"
        return
    assert 1 <= len(name) <= 24 and name == name.strip()
    assert name_skeleton(name)
