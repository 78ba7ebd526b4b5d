"""Every refusal the play layer or the web layer can answer has words in both
catalogs (``error.<code>``), with no placeholder the refusal does not carry."""

from __future__ import annotations

import string

import pytest

from firstlast.i18n import LANGS, catalog
from firstlast.play.errors import CODES
from firstlast.web.errors import WEB_CODES


def _fields(template: str) -> set[str]:
    return {name.split("!")[0] for _, name, _, _ in string.Formatter().parse(template) if name}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("code", [*CODES, *WEB_CODES])
def test_every_error_code_has_words(code: str, lang: str) -> None:
    text = catalog(lang)[f"error.{code}"]
    english = CODES[code][1] if code in CODES else WEB_CODES[code][1]
    # The catalog may say less than the English template, never ask for more.
    assert _fields(text) <= _fields(english), (code, lang, text)
