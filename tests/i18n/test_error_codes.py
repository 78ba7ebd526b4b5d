"""Every refusal the play layer or the web layer can answer has words in both
catalogs (``error.<code>``), with no placeholder the refusal does not carry: the
catalogs are the only place its sentence lives (``i18n.error_text`` says it)."""

from __future__ import annotations

import pytest

from firstlast.i18n import LANGS, catalog, placeholders
from firstlast.play.errors import CODES
from firstlast.web.errors import WEB_CODES


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("code", [*CODES, *WEB_CODES])
def test_every_error_code_has_words(code: str, lang: str) -> None:
    text = catalog(lang)[f"error.{code}"]
    english = catalog("en")[f"error.{code}"]
    # Another language may say less than the English, never ask for more.
    assert placeholders(text) <= placeholders(english), (code, lang, text)
