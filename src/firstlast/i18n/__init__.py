"""One message catalog per language (``en.json``, ``ru.json``: flat ``key → template``
maps with ``{name}`` placeholders), shared by the page, the terminal and the CLI; this
module reads them and renders what needs grammar (docs/i18n.md: the files, the API, the
key names).

Everything here is pure: the only state is the cache (``functools.cache``) of the files read.
"""

from __future__ import annotations

import errno
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from types import MappingProxyType
from typing import Final, Literal, Protocol

import msgspec

from ..engine import places
from ..engine.cards import SUIT_CHARS, Card
from ..engine.position import Movement
from ..engine.variant import Variant

#: The languages every catalog, help page and face speaks.
LANGS: Final = ("ru", "en")
#: The language spoken when none is asked for (the command line's, a new page's).
DEFAULT_LANG: Final = "en"
#: A suit as the cards show it, by its letter in the notation (``engine.cards.SUIT_CHARS``).
SUIT_GLYPHS: Final = MappingProxyType({"c": "♣", "d": "♦", "h": "♥", "s": "♠"})

Case = Literal["nom", "acc", "gen", "pl"]
PlaceForm = Literal["name", "from", "onto", "at"]
Plural = Literal["one", "few", "many"]

_PLACEHOLDER: Final = re.compile(r"\{(\w+)\}")


def lang_of_tag(tag: str | None) -> str | None:
    """The catalog language a language tag or locale names (``ru``, ``ru-RU``,
    ``ru_RU.UTF-8`` → ``ru``), ``None`` for any other (the page's ``langOf``)."""
    code = (tag or "").lower()
    return next((lang for lang in LANGS if code == lang or code.startswith((f"{lang}-", f"{lang}_", f"{lang}."))), None)


def other_lang(lang: str) -> str:
    """The other language of the two (what the language switch changes to)."""
    return next(other for other in LANGS if other != lang)


def _read(name: str) -> str:
    return resources.files(__name__).joinpath(name).read_text(encoding="utf-8")


@cache
def catalog(lang: str) -> Mapping[str, str]:
    """The catalog of ``lang`` (one of ``LANGS``), read once, read-only."""
    if lang not in LANGS:
        raise ValueError(f"no catalog for language {lang!r} (expected one of {', '.join(LANGS)})")
    return MappingProxyType(msgspec.json.decode(_read(f"{lang}.json"), type=dict[str, str]))  # one flat object


def placeholders(template: str) -> frozenset[str]:
    """The ``{name}`` placeholders of a template."""
    return frozenset(_PLACEHOLDER.findall(template))


def fill(template: str, params: Mapping[str, object]) -> str:
    """``template`` with every ``{name}`` replaced by ``params[name]``. A missing
    parameter is a ``KeyError``: a half-filled sentence never reaches a player."""
    return _PLACEHOLDER.sub(lambda m: str(params[m.group(1)]), template)


def t(lang: str, key: str, /, **params: object) -> str:
    """The string ``key`` in ``lang``, filled from ``params``. An unknown key raises
    ``KeyError``: there is no silent fall-back to English."""
    return fill(catalog(lang)[key], params)


@dataclass(frozen=True)
class PluralRule:
    """A count ``n`` takes ``form`` when ``n`` (or ``n % mod``) is one of ``ends``, unless
    ``n % 100`` is one of ``but``."""

    form: Plural
    ends: tuple[int, ...]
    mod: int | None = None
    but: tuple[int, ...] = ()


@dataclass(frozen=True)
class Grammar:
    """What of a language's grammar the catalogs depend on, declared once (docs/i18n.md,
    "Plurals"): the plural forms (the first rule that matches a count, else ``other``) and
    the forms a rank has beside its nominative. The page's copy is generated."""

    rules: tuple[PluralRule, ...]
    other: Plural
    rank_forms: tuple[str, ...]

    @property
    def plurals(self) -> tuple[Plural, ...]:
        return (*(r.form for r in self.rules), self.other)


GRAMMAR: Final[Mapping[str, Grammar]] = MappingProxyType({
    # 1, 21, 101 → one; 2–4, 22–24 → few; 0, 5–20, 25–30 → many.
    "ru": Grammar((PluralRule("one", (1,), 10, (11,)), PluralRule("few", (2, 3, 4), 10, (12, 13, 14))), "many",
                  ("acc", "gen", "pl")),
    "en": Grammar((PluralRule("one", (1,)),), "many", ("a", "pl")),
})


def plural_category(lang: str, n: int) -> Plural:
    """Which plural key a count ``n`` takes in ``lang``, by ``GRAMMAR``."""
    n, grammar = abs(n), GRAMMAR[lang]
    for rule in grammar.rules:
        if (n % rule.mod if rule.mod else n) in rule.ends and n % 100 not in rule.but:
            return rule.form
    return grammar.other


def plural(lang: str, key: str, n: int, /, **params: object) -> str:
    """The plural key family ``key.<form>`` for the count ``n`` (passed as ``{n}``, as
    ``number`` writes it)."""
    return t(lang, f"{key}.{plural_category(lang, n)}", n=number(n, lang), **params)


# ------------------------------------------------------------------ cards and places
def rank_name(rank: int, lang: str, case: Case = "nom", *, article: bool = False) -> str:
    """``rank_name(12, "en") == "queen"``, ``rank_name(12, "ru", "acc") == "даму"``;
    ``article``: "a queen" (Russian has none). A form the language lacks is the nominative."""
    if not 1 <= rank <= 13:
        raise ValueError(f"rank out of range 1…13: {rank}")
    forms = GRAMMAR[lang].rank_forms
    form = "a" if article and "a" in forms else case
    return t(lang, f"rank.{rank}.{form}" if form in forms else f"rank.{rank}")


def card_name(card: Card | str, lang: str, case: Case = "nom") -> str:
    """A card spoken in full: "queen of hearts", "дама червей". ``card`` is a ``Card``
    or its notation (``Qh``)."""
    c = card if isinstance(card, Card) else Card.from_token(card)
    return t(lang, "card", rank=rank_name(c.rank, lang, case), suit=t(lang, f"suit.{SUIT_CHARS[c.suit]}"))


def place_name(place: str, lang: str, form: PlaceForm = "name") -> str:
    """A place (its one name, ``places.PLACE_NAMES``) in words; ``form``: the phrase
    "from …", "onto …" or "at …", whose preposition and case differ by place in Russian."""
    suffix = "" if form == "name" else f".{form}"
    p = places.Place(place)  # not a place: a ValueError
    row = places.kind(p)
    if row in ("stock", "waste"):
        return t(lang, f"place.{row}{suffix}")
    return t(lang, f"place.{row}{suffix}", n=places.index(p) + 1)


def ordinal(n: int, lang: str) -> str:
    """A card's place in a row of cards, in figures: "12th" / "12-я" (Russian agrees
    with *карта*, feminine, whatever the number)."""
    if lang == "ru":
        return f"{n}-я"
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


# ------------------------------------------------------------------ refusals
#: The refusals' parameters that name a place (``engine.errors.REFUSALS``).
_PLACE_PARAMS: Final = frozenset({"pile", "place", "source", "base"})


def refusal_text(code: str, params: Mapping[str, object], lang: str) -> str:
    """The engine's refusal ``code`` (``engine.errors.REFUSALS``) with its ``params`` in
    words: "the eight of spades does not fit pile 1, which needs a queen (R4)"; what each
    placeholder says: docs/i18n.md. A code that is not the engine's is a ``KeyError``."""
    template = catalog(lang)[f"refusal.{code}"]
    values: dict[str, object] = {}
    for name in placeholders(template):
        base = name.removesuffix("_label")
        value = params[base]
        if base == "card":
            values[name] = card_name(str(value), lang)
        elif base == "need":
            values[name] = rank_name(int(str(value)), lang, article=True)
        elif base in _PLACE_PARAMS:
            values[name] = str(value) if name != base else place_name(str(value), lang)
        else:
            values[name] = value
    return fill(template, values)


def error_text(code: str, params: Mapping[str, object], lang: str) -> str:
    """The one renderer of refusals: any coded refusal a face shows (``error.<code>``),
    the engine's refusal or syntax error behind it (``params["refusal"]``,
    ``params["invalid"]``) in words as its ``{reason}``; a ``move.illegal`` is that refusal."""
    values = dict(params)
    refusal, invalid = params.get("refusal"), params.get("invalid")
    try:
        if isinstance(refusal, str):
            values["reason"] = refusal_text(refusal, params, lang)
            if code == "move.illegal":
                return str(values["reason"])
        elif isinstance(invalid, str):
            values["reason"] = invalid_text(invalid, params, lang)
    except (KeyError, ValueError):
        pass  # parameters that do not fit the code: the sentence the error came with stands
    return fill(catalog(lang)[f"error.{code}"], values)


# ------------------------------------------------------------------ files
def os_error_text(error: OSError, lang: str) -> str:
    """Why the system refused a file, in ``lang``: the common causes from the catalog
    (``os_error.<ENOENT…>``; the English is the system's own words), the system's text
    for the rest."""
    name = errno.errorcode.get(error.errno or 0, "")
    return catalog(lang).get(f"os_error.{name}") or error.strerror or str(error)


def file_error_text(code: str, path: object, limit: int, lang: str, *, os_error: OSError | None,
                    too_large: str = "file.too_large") -> str:
    """Why a file could not be read (``recordfile.RecordFileError``: its ``code``, its
    ``limit`` in bytes and the system's ``os_error``), in ``lang``, for every face.
    ``too_large``: the sentence that names what the file was read as."""
    if os_error is not None:
        return t(lang, "file.unreadable", path=path, error=os_error_text(os_error, lang))
    return t(lang, too_large if code == "too_large" else f"file.{code}", path=path, max=number(limit, lang))


# ------------------------------------------------------------------ syntax errors
def invalid_text(code: str, params: Mapping[str, object], lang: str) -> str:
    """The engine's syntax error (``InvalidMoveError.code``: ``move.syntax``,
    ``move.source`` …) with its ``params``, in ``lang``. A code raised with different
    parameter sets has one key per set (``invalid.move.shuffle``, ``…shuffle.size``):
    the first whose placeholders the parameters fill is used."""
    cat = catalog(lang)
    base = f"invalid.{code}"
    keys = [base, *sorted(k for k in cat if k.startswith(base + "."))]
    for key in keys:
        if key in cat and placeholders(cat[key]) <= set(params):
            return fill(cat[key], params)
    raise KeyError(f"{base}: no sentence for the parameters {sorted(params)}")


# ------------------------------------------------------------------ the chance figure
class Interval(Protocol):
    """What ``chance_parts`` reads of an estimate (``odds.live.ChanceEstimate``): a
    probability and its 95 % interval, all 0…1. An estimate with ``certain`` true (won,
    stuck) is shown as exactly 0 or 100 %."""

    @property
    def probability(self) -> float: ...
    @property
    def low(self) -> float: ...
    @property
    def high(self) -> float: ...


#: Half-width of the 95 % interval, in percentage points, up to which the figure itself
#: is shown to whole percent; each tenth of it earns one more decimal.
POINT_HALF_WIDTH: Final = 1.5
#: Most decimals a chance is ever shown with.
MAX_DECIMALS: Final = 3


@dataclass(frozen=True, slots=True)
class ChanceParts:
    """The chance figure as the samples support it, in percent, language-free. ``kind``:
    ``certain`` (exactly ``point``, 0 or 100), ``point`` (``point`` to ``decimals``
    decimals, with the interval) or ``range`` (the interval alone, ``point`` ``None``).
    ``low`` and ``high`` are rounded outward, so they still contain the 95 % interval."""

    kind: Literal["certain", "point", "range"]
    decimals: int
    point: float | None
    low: float
    high: float


def chance_parts(estimate: Interval) -> ChanceParts:
    """The display rule of the chance figure, one for every face (docs/i18n.md, "The
    chance figure: one display rule")."""
    if getattr(estimate, "certain", False):
        p = 100.0 if estimate.probability >= 0.5 else 0.0
        return ChanceParts("certain", 0, p, p, p)
    half = 100 * (estimate.high - estimate.low) / 2
    d = 0
    while d < MAX_DECIMALS and half <= POINT_HALF_WIDTH / 10 ** (d + 1):
        d += 1
    scale = 10**d
    # Outward (the 1e-9 keeps float noise such as 24.000000001 from widening it) …
    low = math.floor(100 * estimate.low * scale + 1e-9) / scale
    high = math.ceil(100 * estimate.high * scale - 1e-9) / scale
    # … and the figure to nearest, halves up.
    point = math.floor(100 * estimate.probability * scale + 0.5) / scale
    if half > POINT_HALF_WIDTH or point in (0.0, 100.0):
        # A lone 0 % or 100 % would claim certainty the samples do not give.
        return ChanceParts("range", d, None, low, high)
    return ChanceParts("point", d, point, low, high)


_RUSSIAN_DIGITS: Final = str.maketrans({",": "\u00a0", ".": ","})


def number(value: float, lang: str, decimals: int | None = None) -> str:
    """The one way a sentence writes a number in ``lang``, as the page's ``toLocaleString``:
    digits grouped, "1,234.5" / "1 234,5"; ``decimals``: that many (a whole number: as is)."""
    text = f"{value:,}" if decimals is None else f"{value:,.{decimals}f}"
    return text.translate(_RUSSIAN_DIGITS) if lang == "ru" else text


def chance_text(estimate: Interval, lang: str, *, short: bool = False) -> str:
    """The chance figure in words, per ``chance_parts``: "25 % (24–26 %)", "20–25 %",
    "100 %"; Russian "25 % (24–26 %)" with a decimal comma. A no-break space stands
    before % in both languages, so the figure never breaks across lines. ``short``: in at
    most eight characters, for the page's meter: the figure without its interval, and
    "< 1 %" / "> 99 %" rather than a run of decimals: the meter's width never changes
    much, so the status bar never reflows the table (issue 26)."""
    parts = chance_parts(estimate)
    if short and parts.kind != "certain" and parts.high < 1:
        return t(lang, "chance.short.below", p=1)
    if short and parts.kind != "certain" and parts.low > 99:
        return t(lang, "chance.short.above", p=99)
    low, high = (number(x, lang, parts.decimals) for x in (parts.low, parts.high))
    if parts.point is None:  # the interval alone
        return t(lang, "chance.range", low=low, high=high)
    p = number(parts.point, lang, parts.decimals)
    return t(lang, "percent" if short or parts.kind == "certain" else "chance.point", p=p, low=low, high=high)


# ------------------------------------------------------------------ announcements
def _run_phrase(run: Sequence[Movement], lang: str, undo: bool) -> str:
    """Words for consecutive movements that share their source and target."""
    m = run[0]
    if m.source == places.WASTE and m.target == places.STOCK and not undo:
        return plural(lang, "announce.redeal", len(run))
    src, dst = place_name(m.source, lang, "from"), place_name(m.target, lang, "onto")
    if len(run) > 1:
        return plural(lang, "announce.cards", len(run), **{"from": src, "onto": dst})
    if m.source == places.STOCK and not undo:
        return t(lang, "announce.turn", card=card_name(m.card, lang), onto=dst)
    return t(lang, "announce.move", card=card_name(m.card, lang), **{"from": src, "onto": dst})


def announce(movements: Sequence[Movement], lang: str, *, undo: bool = False) -> str:
    """One step's card movements (``Position.apply``'s, or an undo's, which put the cards
    back) as words for a screen reader: "queen of hearts from reserve 2 onto pile 1;
    reserve 2 refilled with the four of spades". ``undo`` marks the movements as taken
    back; a turn and a redeal are then plain movements."""
    parts: list[str] = []
    i = 0
    while i < len(movements):
        m = movements[i]
        prev = movements[i - 1] if i else None
        if not undo and prev is not None and m.source in (places.WASTE, places.STOCK) and m.target == prev.source:
            # R7: the place a card just left is refilled from the waste or the stock.
            parts.append(t(lang, "announce.refill", place=place_name(m.target, lang), card=card_name(m.card, lang)))
            i += 1
            continue
        j = i + 1
        while j < len(movements) and (movements[j].source, movements[j].target) == (m.source, m.target):
            j += 1
        parts.append(_run_phrase(movements[i:j], lang, undo))
        i = j
    text = "; ".join(parts) if parts else t(lang, "announce.none")
    return t(lang, "announce.undo", what=text) if undo and parts else text


# ------------------------------------------------------------------ variants
def describe_variant(variant: Variant, lang: str) -> str:
    """``Variant.describe()`` in ``lang``: "3 redeals, privileged last card"."""
    redeals = variant.redeals
    parts = [t(lang, "variant.unlimited") if redeals is None else plural(lang, "variant.redeals", redeals)]
    if variant.waste_playable:
        parts.append(t(lang, "variant.waste_playable"))
    parts.append(t(lang, "variant.privileged" if variant.privileged_last else "variant.no_privileged"))
    return t(lang, "list.join").join(parts)


# ------------------------------------------------------------------ help and the book
#: Where the help's table of keys goes (``play.actions.keys_markdown`` makes it).
KEYS_MARK: Final = "<!-- keys -->"


def help_markdown(lang: str, keys: str = "") -> str:
    """The help page as Markdown, with ``keys``, the table of keys
    (``play.actions.help_markdown`` passes it)."""
    if lang not in LANGS:
        raise ValueError(f"no help in language {lang!r} (expected one of {', '.join(LANGS)})")
    return _read(f"help-{lang}.md").replace(KEYS_MARK, keys)


@cache
def book_text() -> str:
    """The book's own Russian text of the game (docs/rules.md): its title, then its
    paragraphs, one blank line apart. The reprint (``seed-ru.txt``) opens with the
    site's section name ("Библиотека"), no part of the text, so that is left out here
    for every face."""
    _section, *text = (part.strip() for part in _read("seed-ru.txt").split("\n\n"))
    return "\n\n".join(text) + "\n"


def record_text(kind: str, value: int, previous: int | None, lang: str) -> str:
    """A personal record a game set (``play.stats.RecordNews``) in words: ``kind`` is
    ``first_win``, ``streak``, ``passes`` or ``lost_score``; ``previous`` the record it
    beat (``None``: none)."""
    before = "—" if previous is None else previous
    if kind in ("streak", "passes"):
        return plural(lang, f"record.{kind}", value, previous=before)
    return t(lang, f"record.{kind}", n=value, previous=before)
