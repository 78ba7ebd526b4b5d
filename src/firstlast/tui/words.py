"""The terminal's words, from the shared catalogs (``firstlast.i18n``, docs/i18n.md).

Key bindings carry their catalog key as their ``id``; ``localize`` rewrites their
descriptions in a language and asks the footer to redraw, so the footer follows the
language the moment it changes.
"""

from __future__ import annotations

from dataclasses import replace

from textual.binding import Binding
from textual.dom import DOMNode

from ..engine import Variant
from ..i18n import LANGS, plural, t

DEFAULT_LANG = "en"


def lang_of(value: str | None) -> str:
    """The language to speak for a setting (``None``: English)."""
    return value if value in LANGS else DEFAULT_LANG


def other(lang: str) -> str:
    """The other language of the two (the language key switches to it)."""
    return "en" if lang == "ru" else "ru"


def binding(keys: str, action: str, key: str, show: bool = True) -> Binding:
    """A key binding whose description is the catalog string ``key`` (English until
    ``localize`` says otherwise)."""
    return Binding(keys, action, t(DEFAULT_LANG, key), show=show, id=key)


def localize(node: DOMNode, lang: str) -> None:
    """Say ``node``'s bindings (those made by ``binding``) in ``lang``; the footer redraws."""
    table = node._bindings.key_to_bindings
    for key, bindings in table.items():
        table[key] = [replace(b, description=t(lang, b.id)) if b.id and b.id.startswith("tui.") else b
                      for b in bindings]
    node.refresh_bindings()


def compact_variant(variant: Variant, lang: str = DEFAULT_LANG) -> str:
    """A variant in fewer words than ``describe_variant``: ``∞ redeals, waste playable,
    no privilege``."""
    redeals = (t(lang, "tui.title.variant.unlimited") if variant.redeals is None
               else plural(lang, "tui.title.variant.redeals", variant.redeals))
    parts = [redeals, *([t(lang, "tui.title.variant.waste_playable")] if variant.waste_playable else []),
             t(lang, "tui.title.variant.privileged" if variant.privileged_last else "tui.title.variant.no_privileged")]
    return ", ".join(parts)
