"""The maps stay true: every package of games/ names each of its modules and subpackages in its
__init__.py's docstring, and names no module it does not have (issue 36.2)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

GAMES = Path(__file__).resolve().parents[2] / "games"
UNMAPPED = {"migrations", "templates", "__pycache__"}
# A module named in a map: "name.py" not inside a path (engine/noguess.py is another folder's).
NAMED_MODULE = re.compile(r"(?<![\w/.])(\w+)\.py\b")


def packages() -> list[Path]:
    return sorted(
        init.parent
        for init in GAMES.rglob("__init__.py")
        if not UNMAPPED & set(init.relative_to(GAMES).parts)
    )


def contents(package: Path) -> set[str]:
    """What a map must name: its modules as `name.py`, its subpackages as `name/`."""
    names = {p.name for p in package.glob("*.py") if p.name != "__init__.py"}
    names |= {
        f"{p.name}/"
        for p in package.iterdir()
        if p.is_dir() and p.name not in UNMAPPED and (p / "__init__.py").exists()
    }
    return names


def missing_and_stale(package: Path) -> tuple[set[str], set[str]]:
    doc = ast.get_docstring(ast.parse((package / "__init__.py").read_text(encoding="utf-8"))) or ""
    have = contents(package)
    missing = {name for name in have if not re.search(rf"(?<![\w/.]){re.escape(name)}", doc)}
    stale = {f"{m}.py" for m in NAMED_MODULE.findall(doc)} - have
    return missing, stale


def test_the_check_sees_a_missing_and_a_stale_name(tmp_path):
    (tmp_path / "kept.py").write_text("")
    (tmp_path / "new.py").write_text("")
    (tmp_path / "inner").mkdir()
    (tmp_path / "inner" / "__init__.py").write_text("")
    (tmp_path / "__init__.py").write_text('"""A room.\n\n    kept.py  x\n    gone.py  y\n"""\n')
    assert missing_and_stale(tmp_path) == ({"new.py", "inner/"}, {"gone.py"})


def test_every_package_map_names_each_module_it_has_and_no_other():
    found = packages()
    assert GAMES / "races" in found and GAMES / "engine" / "solver" in found
    wrong = {}
    for package in found:
        missing, stale = missing_and_stale(package)
        if missing or stale:
            wrong[str(package.relative_to(GAMES.parent))] = {"missing": missing, "stale": stale}
    assert wrong == {}
