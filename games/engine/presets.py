"""The classic sizes (docs/protocol.md 2): name -> (width, height, mines)."""

PRESETS: dict[str, tuple[int, int, int]] = {
    "beginner": (9, 9, 10),
    "intermediate": (16, 16, 40),
    "expert": (30, 16, 99),
}
