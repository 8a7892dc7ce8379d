"""Name rules and skeletons (games.names, docs/protocol.md 4): which names are one, which are
refused."""

import string

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.errors import ServiceError
from games.names import name_clean, name_skeleton, names_clash

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


# Issue 22.3: the skeleton was taken after casefold(), which turns a capital I into i, so
# TR39's I/l confusion was never seen and `CaroI` (capital i) got in beside `Carol`.
@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("CaroI", "Carol"),  # capital i for small L: drawn alike
        ("caroI", "carol"),
        ("ALICE", "ALlCE"),  # small L for capital i
        ("Carol", "C\u0430rol"),  # Cyrillic a
        ("ALICE", "alice"),  # one name whatever the case
        ("B0B", "BOB"),  # a zero among capitals
    ],
)
def test_look_alikes_as_written_clash(one, other):
    assert names_clash(one, other) and names_clash(other, one)


@pytest.mark.parametrize(("one", "other"), [("b0b", "bob"), ("alice", "alicia"), ("bill", "biii")])
def test_names_drawn_differently_do_not_clash(one, other):
    assert not names_clash(one, other)


@given(st.text(alphabet=string.ascii_letters, min_size=1, max_size=24), st.data())
def test_a_capital_i_for_a_small_l_always_clashes(name, data):
    """Any name with small Ls, some of them written as capital Is, is the same name to a
    reader (the site's font draws them alike)."""
    name = data.draw(st.sampled_from(["l", "L"])) + name  # at least one l
    spoof = "".join("I" if ch == "l" and data.draw(st.booleans()) else ch for ch in name)
    assert names_clash(spoof, name)


@given(st.text(alphabet=string.ascii_letters + string.digits, min_size=1, max_size=24))
def test_case_alone_always_clashes_and_the_identity_is_unchanged(name):
    assert names_clash(name, name.upper()) and names_clash(name.lower(), name)
    assert name_skeleton(name.upper()) == name_skeleton(name)  # leaderboards group as before


@given(st.text(alphabet="abcdefghjkmnpqrstuvwxyz", min_size=1, max_size=23), st.data())
def test_a_zero_for_a_small_o_never_clashes(stem, data):
    """`0` is drawn like a capital O, never like a small o: `b0b` and `bob` stay two names."""
    at = data.draw(st.integers(0, len(stem)))
    assert not names_clash(stem[:at] + "0" + stem[at:], stem[:at] + "o" + stem[at:])
