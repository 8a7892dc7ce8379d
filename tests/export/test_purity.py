"""The encoder is our own: standard library and engine only, and ms_toollib stays in the tests."""

import ast
import sys
from pathlib import Path

GAMES = Path(__file__).resolve().parents[2] / "games"
ENCODER = [GAMES / "export" / "evf.py", GAMES / "export" / "replay.py"]
ALLOWED = {("games", "engine"), ("games", "export")}


def imported(path: Path) -> list[str]:
    names = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            names.append(node.module or "")
    return names


def test_the_encoder_imports_only_the_standard_library_and_the_engine():
    offenders = [
        f"{path.name}: {name}"
        for path in ENCODER
        for name in imported(path)
        if name.split(".")[0] not in {*sys.stdlib_module_names, "__future__"}
        and tuple(name.split(".")[:2]) not in ALLOWED
    ]
    assert offenders == []
    assert "games.export.evf" in imported(GAMES / "export" / "replay.py")


def test_no_server_code_uses_ms_toollib():
    users = [
        str(path.relative_to(GAMES))
        for path in sorted(GAMES.rglob("*.py"))
        if any(name.split(".")[0] == "ms_toollib" for name in imported(path))
    ]
    assert users == []
