"""What every page's template may read: the preset boards, from the engine's one list."""

from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest

from games.engine.presets import PRESETS


@dataclass(frozen=True)
class BoardPreset:
    """A preset as the pages name it: `beginner`, "Beginner", 9 x 9 with 10 mines."""

    name: str
    width: int
    height: int
    mines: int

    @property
    def label(self) -> str:
        return self.name.capitalize()


BOARD_PRESETS = tuple(BoardPreset(name, *size) for name, size in PRESETS.items())


def presets(request: HttpRequest) -> dict[str, Any]:
    """`presets` in every template: the boards in the engine's order (beginner first)."""
    return {"presets": BOARD_PRESETS}
