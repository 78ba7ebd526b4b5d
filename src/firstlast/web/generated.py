"""Every file generated from Python for the page and the docs: the game's vocabulary
and the key map (``vocabulary``), the API's typedefs and the reference in
docs/web-api.md (``schema``). A test finds a stale one.

    python -m firstlast.web.generated           # write those that differ
    python -m firstlast.web.generated --check   # write nothing; exit 1 naming each stale one
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

COMMAND = "python -m firstlast.web.generated"


def files() -> dict[Path, str]:
    """Each generated file and the text it must hold."""
    from . import schema, vocabulary

    return {vocabulary.MODULE: vocabulary.module(), schema.TYPEDEFS: schema.typedefs(),
            schema.DOC: schema.doc_with_reference(schema.DOC.read_text(encoding="utf-8"))}


def refresh(path: Path, text: str, *, check: bool) -> bool:
    """Make ``path`` hold ``text`` (with ``check``, write nothing); whether it did not."""
    stale = (path.read_text(encoding="utf-8") if path.exists() else None) != text
    if stale and not check:
        path.write_text(text, encoding="utf-8")
    return stale


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog=COMMAND, description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if a file is not up to date")
    args = parser.parse_args(argv)
    stale = [path for path, text in files().items() if refresh(path, text, check=args.check)]
    if args.check and stale:
        print(f"not up to date (run {COMMAND}): " + ", ".join(map(str, stale)), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
