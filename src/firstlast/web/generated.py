"""Files generated from Python for the page (``vocabulary.js``, ``keymap.js``): written
when they differ, or only checked (a test and CI find a stale one)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path


def refresh(path: Path, text: str, *, check: bool, command: str) -> int:
    """Make ``path`` hold ``text``: 0 when it does (already, or written now); with
    ``check``, write nothing and answer 1, naming ``command`` that makes it, when it
    does not."""
    current = path.read_text(encoding="utf-8") if path.exists() else None
    if current == text:
        return 0
    if check:
        print(f"not up to date (run {command}): {path}", file=sys.stderr)
        return 1
    path.write_text(text, encoding="utf-8")
    return 0


def main(argv: list[str] | None, module: str, doc: str, out: Path, make: Callable[[], str]) -> int:
    """The command line of a generator ``python -m <module>`` (``--out``, ``--check``)."""
    command = f"python -m {module}"
    parser = argparse.ArgumentParser(prog=command, description=doc.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=out, help=f"where {out.name} goes")
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if the file is not up to date")
    args = parser.parse_args(argv)
    return refresh(args.out, make(), check=args.check, command=command)
