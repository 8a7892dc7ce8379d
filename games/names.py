"""Names people play under (docs/protocol.md 4): what a name may contain, and when two are one.

Two names are one when their *skeletons* are equal: NFKC, then `casefold()`, then Unicode
TR39's confusables mapping, which ICU's SpoofChecker implements (`alice`, `ALICE`, and
`alice` spelt with a Cyrillic a, in fullwidth or in mathematical bold letters all give
`alice`; tests/names shows them). Every comparison
of names (in a game, against accounts, on leaderboards and player pages) goes through
`name_skeleton`, so no two places can disagree about who is who.

Folding case first hides the confusions of capitals (`I` drawn as `l`), so a name may also
not stand beside one it *looks* like as written: `name_look`, the skeleton with the case kept
(`CaroI` looks like `Carol`). `names_clash` is the refusal rule: one of the two keys shared.

The skeleton depends on ICU's confusables data: an upgrade of PyICU that changes it needs
the stored keys recomputed (migration 0011 shows how).
"""

from __future__ import annotations

import unicodedata
from typing import Any

import icu

from games.errors import ServiceError

NAME_MAX_CHARS = 24
SKELETON_MAX_CHARS = 256  # the key columns' size; 24 characters never come near in practice

# Characters that render as nothing or as blank: default-ignorable code points (zero-width
# spaces and joiners, variation selectors, Hangul fillers, tags...), format characters, and
# the braille blank. A name made to look empty, or like another with an invisible extra, is
# refused rather than compared.
_INVISIBLE = icu.UnicodeSet(r"[[:Default_Ignorable_Code_Point:][:Cf:]\u2800]")
_INVISIBLE.freeze()  # immutable, so safe to read from any thread
_SPOOF = icu.SpoofChecker()


def name_clean(value: Any, max_chars: int = NAME_MAX_CHARS) -> str:
    """The name as it will be shown: 1..24 visible characters after strip(), or `bad_name`
    (a tournament's name follows the same rules with room for 40)."""
    if not isinstance(value, str):
        raise ServiceError("bad_name", "name must be a string")
    name = value.strip()
    if not 1 <= len(name) <= max_chars:
        raise ServiceError("bad_name", f"name must be 1 to {max_chars} characters")
    if not name.isprintable():
        raise ServiceError("bad_name", "name must be printable characters only")
    if any(_INVISIBLE.contains(ch) for ch in name):
        raise ServiceError("bad_name", "name must not contain invisible or blank characters")
    if unicodedata.category(name[0]).startswith("M"):
        raise ServiceError("bad_name", "name must not begin with a combining mark")
    if len(name_skeleton(name)) > SKELETON_MAX_CHARS:
        raise ServiceError("bad_name", "name is too long once normalized")
    return name


def name_skeleton(name: str) -> str:
    """A name's identity: the key two names share when they are one name whatever the case
    (leaderboards and player pages group by it; a game and the accounts keep it unique)."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    return _SPOOF.getSkeleton(0, folded)


def name_look(name: str) -> str:
    """How a name looks as written: its skeleton with the case kept. Folding first turns `I`
    into `i` and hides TR39's `I`/`l` (`CaroI` and `Carol` are drawn alike), so this key is
    taken before any folding; `0` still maps to capital `O`, so `b0b` stays apart from `bob`."""
    return _SPOOF.getSkeleton(0, unicodedata.normalize("NFKC", name))


def names_clash(one: str, other: str) -> bool:
    """Whether two names may not stand side by side: one name whatever the case
    (`ALICE`, `alice`), or drawn alike as written (`CaroI`, `Carol`)."""
    return name_skeleton(one) == name_skeleton(other) or name_look(one) == name_look(other)
