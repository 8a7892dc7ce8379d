"""Citations name the repository (docs/architecture.md, "Rules the code relies on", 8): no file
outside it is cited, and every "docs/protocol.md N" names a section docs/protocol.md has."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PROTOCOL = ROOT / "docs" / "protocol.md"
# Where citations are written: product code, pages, tests, docs and the project's own files.
SCANNED = ("games", "frontend", "config", "tests", "docs", "deploy", ".ci")
SCANNED_FILES = ("README.md", "Makefile", "pyproject.toml", "requirements.txt")
SUFFIXES = {".py", ".js", ".html", ".css", ".md", ".yaml", ".yml", ".toml", ".txt", ".conf", ""}
SKIPPED = {"node_modules", "__pycache__", "fixtures"}

# The upstream files, which live outside the repository (spelled in pieces so this file is clean).
UPSTREAM = "|".join(["PROTOCOL", "STYLE", "DESIGN", "FIELD-NOTES"])
OUTSIDE = re.compile(rf"(?<![\w/.-])(?:{UPSTREAM})(?:\.md\b|,?\s+(?:section\s+)?\d)")
OUTSIDE_PATH = re.compile("/" + r"work/|\.\./shared/")
# A line break inside a comment or docstring, with the next line's comment marker.
BREAK = re.compile(r"[ \t]*\n[ \t]*(?:#|//|\*(?!/))?[ \t]*")
NUMBER = r"\d+(?:\.\d+)*(?:-\d+(?:\.\d+)*)?"
JOIN = r"(?:,\s*|\s+and\s+|\s+or\s+)(?:sections?\s+)?"
CITATION = re.compile(
    r"docs/protocol\.md(?:\]\(docs/protocol\.md\))?,?\s+(?:sections?\s+)?"
    rf"(?P<numbers>{NUMBER}(?:{JOIN}{NUMBER})*)(?![\w.]*\d)"
)
# docs/protocol.md's references to its own sections ("section 6.3", "sections 2.1 and 3").
SELF_CITATION = re.compile(
    rf"(?<!\.md, )(?<!issues )(?<!issue )\bsections?\s+(?P<numbers>{NUMBER}(?:{JOIN}{NUMBER})*)",
    re.I,
)
HEADING = re.compile(r"^#{2,6} (\d+(?:\.\d+)*)\.? ", re.M)
LIST_ITEM = re.compile(r"^ {0,3}(\d+)\. ", re.M)


def protocol_sections(text: str) -> set[str]:
    """The numbers of docs/protocol.md's sections, and "N.k" for item k of a section N's list."""
    numbers: set[str] = set()
    parts = HEADING.split(text)
    for number, body in zip(parts[1::2], parts[2::2], strict=True):
        numbers.add(number)
        numbers.update(f"{number}.{item}" for item in LIST_ITEM.findall(body))
    return numbers


def cited_numbers(numbers: str) -> list[str]:
    """Each section a citation's list names: "3, 5 and 6.1-6.3" -> 3, 5, 6.1, 6.3."""
    return [n for n in re.findall(NUMBER, numbers) for n in n.split("-")]


def problems(text: str, sections: set[str], *, self_citations: bool = False) -> list[str]:
    """What is wrong with the citations in one file's text."""
    flat = BREAK.sub(" ", text)
    found = [f"cites {m.group(0)}, outside the repository" for m in OUTSIDE.finditer(flat)]
    found += [f"names a path outside the repository: {m[0]}" for m in OUTSIDE_PATH.finditer(flat)]
    pattern = SELF_CITATION if self_citations else CITATION
    for match in pattern.finditer(flat):
        found += [
            f"cites docs/protocol.md {n}, which has no such section ({match.group(0)!r})"
            for n in cited_numbers(match.group("numbers"))
            if n not in sections
        ]
    return found


def scanned_files() -> list[Path]:
    paths = [ROOT / name for name in SCANNED_FILES if (ROOT / name).exists()]
    for folder in SCANNED:
        for path in (ROOT / folder).rglob("*"):
            if path.is_file() and path.suffix in SUFFIXES and not SKIPPED & set(path.parts):
                paths.append(path)
    return sorted(paths)


def test_the_checker_finds_each_kind_of_bad_citation():
    sections = protocol_sections("## 1. Boards\n\n1. a\n2. b\n\n### 1.9 More\n\n## 7. Arenas\n")
    assert sections == {"1", "1.1", "1.2", "1.9", "7"}
    assert problems("see docs/protocol.md 7 and docs/protocol.md 1.2-1.9", sections) == []
    assert problems("# docs/protocol.md\n# 1.9, 7 and 1.1", sections) == []
    assert len(problems("docs/protocol.md 3, 7 and 11", sections)) == 2
    assert len(problems("(docs/protocol.md section 1.3)", sections)) == 1
    assert len(problems("as " + "PROTOCOL" + ".md 7 says", sections)) == 1
    assert len(problems("a bot (" + "PROTOCOL" + " 6.1)", sections)) == 1
    assert len(problems("STYLE" + ".md rule 1 and " + "DESIGN" + ".md", sections)) == 2
    assert len(problems("read /" + "work/shared/notes", sections)) == 1
    assert len(problems("as section 12 says", sections, self_citations=True)) == 1
    assert problems("docs/benchmarks.md, section 12", sections, self_citations=True) == []


def test_protocol_has_the_shared_contract_numbering():
    sections = protocol_sections(PROTOCOL.read_text(encoding="utf-8"))
    assert {str(n) for n in range(1, 11)} <= sections
    assert {"1.7", "1.8", "2.1", "2.2", "6.1", "6.2", "6.3", "6.4", "9.1", "9.4"} <= sections


def test_every_citation_names_the_repository_and_a_section_that_exists():
    protocol = PROTOCOL.read_text(encoding="utf-8")
    sections = protocol_sections(protocol)
    paths = scanned_files()
    assert ROOT / "games" / "engine" / "generation.py" in paths  # the scan looks where code is
    found = [
        f"{path.relative_to(ROOT)}: {problem}"
        for path in paths
        if path != Path(__file__).resolve()
        for problem in problems(path.read_text(encoding="utf-8", errors="replace"), sections)
    ]
    found += [f"docs/protocol.md: {p}" for p in problems(protocol, sections, self_citations=True)]
    assert found == []


PATH_NAMED = re.compile(r"(?<![\w./-])((?:games|tests|config|frontend|deploy|docs)/[\w/.-]*\w)")


def test_the_docs_name_only_files_that_exist():
    """docs/ and the README name the repository's files by their paths; a path that no longer
    exists (a module moved or gone) is a stale name (issue 36.2)."""
    stale = []
    for doc in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        for match in PATH_NAMED.finditer(doc.read_text(encoding="utf-8")):
            path = match.group(1).rstrip(".")
            if "<" in path or "*" in path:
                continue
            if not (ROOT / path).exists():
                stale.append(f"{doc.relative_to(ROOT)}: {path}")
    assert stale == []
