"""The engine imports nothing but the standard library (docs/architecture.md, "Rules the code
relies on", 1)."""

import ast
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "games" / "engine"


def test_engine_imports_only_the_standard_library_and_itself():
    paths = sorted(ENGINE.rglob("*.py"))
    assert ENGINE / "generation.py" in paths  # the scan looks where the engine is
    offenders = []
    for path in paths:
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level > 0:
                # Relative: fine while it stays inside games/engine/.
                depth = len(path.relative_to(ENGINE).parts) - 1
                names = [] if node.level <= depth + 1 else ["." * node.level + (node.module or "")]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                if name.split(".")[:2] == ["games", "engine"] or top == "__future__":
                    continue
                if top not in sys.stdlib_module_names:
                    offenders.append(f"{path.name}: {name}")
    assert offenders == []
