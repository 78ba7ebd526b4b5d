"""Add (or change) one user-facing string in both message catalogs at once.

    python scripts/add_string.py KEY "English text" "Русский текст"

A form the language's grammar lacks (``firstlast.i18n.GRAMMAR``: English has no ``.few``
and no ``rank.N.acc``) is not written to that catalog. Both catalogs
(src/firstlast/i18n/{en,ru}.json) are read, changed and written back
right away in their one layout (sorted as they are, indent 1, UTF-8), each through a
temporary file and a rename, so several people adding keys do not undo each other's
work and tests/i18n's key-parity check keeps holding.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

CATALOGS = Path(__file__).resolve().parent.parent / "src" / "firstlast" / "i18n"


def _lacks(lang: str, key: str) -> bool:
    from firstlast.i18n import GRAMMAR

    form = key.rpartition(".")[2]
    plural = form in ("one", "few", "many") and form not in GRAMMAR[lang].plurals
    return plural or (key.startswith("rank.") and key.count(".") == 2 and form in ("a", "acc", "gen")
                      and form not in GRAMMAR[lang].rank_forms)


def add(key: str, texts: dict[str, str]) -> None:
    for lang, text in texts.items():
        if _lacks(lang, key):
            continue
        path = CATALOGS / f"{lang}.json"
        data = json.loads(path.read_text(encoding="utf-8"))
        data[key] = text
        tmp = path.with_suffix(".json.tmp")
        tmp.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        os.replace(tmp, path)


def main(argv: list[str]) -> int:
    if len(argv) != 3 or not all(argv):
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    add(argv[0], {"en": argv[1], "ru": argv[2]})
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
