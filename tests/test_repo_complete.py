"""The repository stands on its own: no tracked file points outside it, and the rule
book that code and tests cite (docs/rules.md) is here and covers every number."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# A path that leaves the repository: the sibling checkout that holds the spec, the
# machine's work tree, or an absolute home or root directory. The names are put together
# here, so that this file holds no such path itself and is scanned like every other.
SIBLING, WORK, SUPER, HOMES = "shared", "work", "root", "home"
OUTSIDE = re.compile(rf"\.\./{SIBLING}|/{WORK}/|(?<![\w.~-])/(?:{SUPER}|{HOMES}/[\w.-]+)/")


def _tracked_files() -> list[str]:
    """Files git tracks, plus new ones it does not ignore (they are about to be committed)."""
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    try:
        out = subprocess.run(
            ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            cwd=ROOT, capture_output=True, check=True,
        ).stdout
    except subprocess.CalledProcessError:
        pytest.skip("not a git checkout")
    return [name for name in out.decode("utf-8").split("\0") if name]


def _text(path: Path) -> str | None:
    """The file's text, or None for a binary (or missing) file."""
    try:
        data = path.read_bytes()
    except (FileNotFoundError, IsADirectoryError):
        return None
    if b"\0" in data[:8192]:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def test_the_pattern_catches_outside_paths() -> None:
    for bad in (f"see ../{SIBLING}/spec/RULES.md", f'Path("/{WORK}/{SIBLING}/x")', f"/{SUPER}/.cache/x",
                f"open('/{HOMES}/alice/notes')", f"cd /{WORK}/main"):
        assert OUTSIDE.search(bad), bad
    for good in ("docs/rules.md §4", "tests/data/seed-ru.txt", "https://example.org/home/page",
                 f"a/{SUPER}/b", f"~/{HOMES}/x/"):
        assert not OUTSIDE.search(good), good


def test_no_tracked_file_points_outside_the_repository() -> None:
    checked, hits = 0, []
    for name in _tracked_files():
        text = _text(ROOT / name)
        if text is None:
            continue
        checked += 1
        for lineno, line in enumerate(text.splitlines(), 1):
            if OUTSIDE.search(line):
                hits.append(f"{name}:{lineno}: {line.strip()[:120]}")
    assert checked > 50, f"only {checked} text files found to check"
    assert hits == [], "files point outside the repository:\n" + "\n".join(hits)


def test_rule_book_is_in_the_repository_and_has_every_number() -> None:
    book = ROOT / "docs" / "rules.md"
    assert book.is_file()
    text = book.read_text(encoding="utf-8")
    numbers = ([f"R{i}" for i in range(1, 12)] + [f"V{i}" for i in range(1, 4)]
               + [f"E{i}" for i in range(1, 7)])
    missing = [n for n in numbers if not re.search(rf"\*\*{n}\b", text)]
    assert missing == [], f"docs/rules.md does not state {missing}"
    for part in ["§4"] + [f"§4.{i}" for i in range(1, 7)]:
        assert part in text, f"docs/rules.md has no {part}"
    for term in ("SplitMix64", "xoshiro256**", "Lemire", "Fisher–Yates", "Readings"):
        assert term in text, f"docs/rules.md does not mention {term}"
