"""The terminal's words, from the shared catalogs (``firstlast.i18n``, docs/i18n.md).

Key bindings carry their catalog key as their ``id``; what a screen's keys do is
shown by its key bar (``keys.KeyBar``), in the language of the moment.
"""

from __future__ import annotations

from textual.binding import Binding

from ..engine import Variant
from ..i18n import DEFAULT_LANG, LANGS, other_lang, plural, t
from ..play.actions import russian_twin


def lang_of(value: str | None, fallback: str = DEFAULT_LANG) -> str:
    """The language to speak for a setting (``None``: ``fallback``, the terminal's own
    language as the command line reads it, English by default)."""
    if value in LANGS:
        return value
    return fallback if fallback in LANGS else DEFAULT_LANG


def starting_lang(asked: str | None, setting: str | None, system: str = DEFAULT_LANG) -> str:
    """The language the terminal opens in: the one asked for by name on this start
    (``--lang``, ``FIRSTLAST_LANG``), else the player's saved setting, else the
    terminal's locale (``system``)."""
    return asked if asked is not None and asked in LANGS else lang_of(setting, system)


other = other_lang  # the language key switches to it


def binding(keys: str, action: str, key: str, show: bool = True) -> Binding:
    """A key binding whose description is the catalog string ``key`` (English until
    ``localize`` says otherwise). Each letter also answers on the Russian layout, from the
    one table of twins (``play.actions.russian_twin``), as the table's own keys do."""
    names = keys.split(",")
    twins = [twin for name in names if (twin := russian_twin(name)) is not None and twin not in names]
    return Binding(",".join([*names, *twins]), action, t(DEFAULT_LANG, key), show=show, id=key)


def compact_variant(variant: Variant, lang: str = DEFAULT_LANG) -> str:
    """A variant in fewer words than ``describe_variant``: ``∞ redeals, waste playable,
    no privilege``."""
    redeals = (t(lang, "variant_label.unlimited") if variant.redeals is None
               else plural(lang, "variant_label.redeals", variant.redeals))
    parts = [redeals, *([t(lang, "tui.title.variant.waste_playable")] if variant.waste_playable else []),
             t(lang, "tui.title.variant.privileged" if variant.privileged_last else "tui.title.variant.no_privileged")]
    return ", ".join(parts)
