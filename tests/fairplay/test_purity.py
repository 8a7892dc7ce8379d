"""The screen is pure: the standard library and the engine, no Django (docs/architecture.md,
"Rules the code relies on", 1), so the human replays, the bench and a verifier can run it on any
move log."""

import ast
import sys
from pathlib import Path

SCREENING = Path(__file__).resolve().parents[2] / "games" / "fairplay" / "screening.py"


def imported_modules(path: Path) -> list[str]:
    names = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            names.append("." * node.level + (node.module or ""))
    return names


def test_the_screen_imports_only_the_standard_library_and_the_engine():
    names = imported_modules(SCREENING)
    assert "games.engine" in names  # the scan reads the real module
    offenders = [
        name
        for name in names
        if name.split(".")[:2] != ["games", "engine"]
        and name.split(".")[0] not in sys.stdlib_module_names
    ]
    assert offenders == []
