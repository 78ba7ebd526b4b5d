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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog=COMMAND, description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if a file is not up to date")
    args = parser.parse_args(argv)
    wanted = files()
    stale = [path for path, text in wanted.items() if not path.exists() or path.read_text(encoding="utf-8") != text]
    if not args.check:
        for path in stale:
            path.write_text(wanted[path], encoding="utf-8")
    elif stale:
        print(f"not up to date (run {COMMAND}): " + ", ".join(map(str, stale)), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
