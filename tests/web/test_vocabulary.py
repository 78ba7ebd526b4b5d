"""The page says what the server says and decides no rule (issue 18): it renders no
refusal of its own, and what it needs of the game's vocabulary is generated from the
engine, never retyped."""

from __future__ import annotations

import re
from pathlib import Path

JS = Path(__file__).resolve().parents[2] / "src" / "firstlast" / "web" / "static" / "js"


def _scripts() -> dict[str, str]:
    return {p.name: p.read_text(encoding="utf-8") for p in sorted(JS.glob("*.js"))}


def test_the_page_renders_no_refusal() -> None:
    """Refusals are said by the server alone (``i18n.error_text``): the page shows the
    ``text`` of an error body and looks up no ``refusal.*`` or ``error.*`` sentence."""
    scripts = _scripts()
    assert "err.text" in scripts["controller.js"] and "this.text" in scripts["api.js"]
    for name, js in scripts.items():
        assert not re.search(r"[`\"']refusal\.", js), f"{name} words a refusal itself"
        assert not re.search(r"[`\"']error\.\$?\{?", js), f"{name} words an error itself"
        assert "refusalText" not in js and "parseCard" not in js, name
