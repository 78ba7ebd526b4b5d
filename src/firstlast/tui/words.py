"""The terminal's words, from the shared catalogs (``firstlast.i18n``, docs/i18n.md).

Key bindings carry their catalog key as their ``id``; what a screen's keys do is
shown by its key bar (``keys.KeyBar``), in the language of the moment.
"""

from __future__ import annotations

from textual.binding import Binding

from ..engine import CANONICAL, Variant
from ..i18n import DEFAULT_LANG, LANGS, plural, t
from ..play.actions import russian_twin


def starting_lang(asked: str | None, setting: str | None, system: str = DEFAULT_LANG) -> str:
    """The language the terminal opens in: the first that names a catalog language of
    the one asked for by name on this start (``--lang``, ``FIRSTLAST_LANG``), the
    player's saved setting and the terminal's locale (``system``); else English."""
    return next((lang for lang in (asked, setting, system) if lang in LANGS), DEFAULT_LANG)


def binding(keys: str, action: str, key: str, show: bool = True) -> Binding:
    """A key binding described by the catalog string ``key`` (the key bar says it in the
    language of the moment). Each letter also answers on the Russian layout, from the
    one table of twins (``play.actions.russian_twin``), as the table's own keys do."""
    names = keys.split(",")
    twins = [twin for name in names if (twin := russian_twin(name)) is not None and twin not in names]
    return Binding(",".join([*names, *twins]), action, t(DEFAULT_LANG, key), show=show, id=key)


def compact_variant(variant: Variant, lang: str = DEFAULT_LANG) -> str:
    """A variant in fewer words than ``describe_variant``, as the page labels it (i18n.js
    ``variantLabel``, the same keys): ``Canonical rules``, ``∞ redeals, V2, no R8``."""
    if variant == CANONICAL:
        return t(lang, "canonical")
    parts = [t(lang, "variant_label.unlimited") if variant.redeals is None
             else plural(lang, "variant_label.redeals", variant.redeals)]
    return ", ".join([*parts, *(["V2"] if variant.waste_playable else []),
                      *([] if variant.privileged_last else [t(lang, "variant_label.no_r8")])])
