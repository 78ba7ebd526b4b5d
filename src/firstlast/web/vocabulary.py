"""The page's copy of the game's vocabulary, ``static/js/vocabulary.js`` (issue 18),
written by ``python -m firstlast.web.generated`` from where each name is declared (``names``,
each told in ``_DOC``), so that the page retypes no name, grammar, limit or key."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path
from typing import Final, get_args

from ..engine.cards import DECK_SIZE, RANK_CHARS, SUIT_CHARS
from ..engine.errors import REFUSALS
from ..engine.places import FIRST, PILES, PLACE_NAMES, PLACES, RESERVE, SOURCES, STOCK, WASTE, kind
from ..engine.position import REDEAL, TABLE_MOVES, TURN, MoveKind
from ..engine.rng import MAX_DEAL
from ..engine.variant import CANONICAL, MAX_REDEALS, STORED_TOKEN_PATTERN, TOKEN_LETTERS, UNLIMITED_WORDS
from ..i18n import DEFAULT_LANG, GRAMMAR, LANGS, SUIT_GLYPHS, t
from ..play import START_KINDS
from ..play.actions import actions_for, key_map, keys_display
from ..play.settings import CHOICES, FINISH_MS, PACES, Settings
from ..play.stats import SCORE_BIN

MODULE: Final = Path(__file__).resolve().parent / "static" / "js" / "vocabulary.js"

#: What each name is, for the module's readers (JSDoc above each export).
_DOC: Final[dict[str, str]] = {
    "DECK_SIZE": "The cards of the double deck (R1), 104: a won game's score (engine.cards.DECK_SIZE).",
    "PLACES": "Every place's one name (engine.places.PLACE_NAMES): stock and waste, F1…F8, R1…R8, P1…P8.",
    "STOCK": "The stock's name.",
    "WASTE": "The waste's name (also the move that plays its top card, V2).",
    "ROWS": "The places of each row, in order (R2, R3).",
    "PLACE_KINDS": "Each place's kind: stock, waste, first, reserve or pile.",
    "SOURCES": "The places a card can be played from (R6): a play's move is the place's name.",
    "MOVE_KINDS": "The kinds of move (Move.kind).",
    "TABLE_MOVES": "Every move a player can ask for, as the engine writes it.",
    "TURN": "The move that turns a card (R9).",
    "REDEAL": "The move that redeals the waste (R10).",
    "VARIANT_TOKEN": "A variant token a game may have (engine.variant.STORED_TOKEN_PATTERN): "
                     "groups redeals, waste, no-privilege.",
    "TOKEN_LETTERS": "The letters of a variant token (engine.variant.TOKEN_LETTERS).",
    "UNLIMITED_WORDS": "What a player may type for unlimited redeals.",
    "MAX_REDEALS": "The most redeals (V1) a stored game may have; past it, unlimited.",
    "CANONICAL": "The canonical rules (V1–V3) and their token.",
    "MAX_DEAL": "The largest deal number (2^64 − 1), as text: read it with BigInt.",
    "DEAL_DIGITS": "The most digits a deal number has (2^64 − 1).",
    "RANK_CHARS": "The ranks' letters in the engine's card notation, ace to king.",
    "SUIT_CHARS": "The suits' letters in the engine's card notation.",
    "REFUSALS": "Every refusal of the rules: its rule and its parameters (engine.errors.REFUSALS).",
    "START_KINDS": "How a new game picks its deal (play.START_KINDS).",
    "PACES": "Each pace of play by the speed setting 0…3 (play.settings.PACES): its name, Auto's moves "
             "per second (null: at once) and one card's flight, ms.",
    "FINISH_MS": "The longest Finish's cascade of a whole game may take, ms (play.settings.FINISH_MS).",
    "SCORE_BIN": "The width of the score histogram's bins, in cards (play.stats.SCORE_BIN).",
    "SETTING_DEFAULTS": "The player's settings as a new player has them (play.settings.Settings()).",
    "SETTING_CHOICES": "The settings that take one of a few words, and those words (play.settings.CHOICES).",
    "LANGS": "The languages every catalog speaks (i18n.LANGS).",
    "DEFAULT_LANG": "The language spoken when none is asked for (i18n.DEFAULT_LANG).",
    "GRAMMAR": "Each language's plural rules and rank forms (i18n.GRAMMAR): what picks a key of a family.",
    "RANK_INDICES": "Each language's rank indices on a card, ace first (the catalogs' rank.N.short), for the "
                    "card pictures drawn before a catalog is loaded.",
    "SUIT_GLYPHS": "A suit as the cards show it (i18n.SUIT_GLYPHS).",
    "KEYMAP": "Every key the page answers to → its action (play.actions, the one table of keys both faces use).\n"
              " * A key is ``KeyboardEvent.key`` for a character (Russian-layout letters included), else a lower-case\n"
              " * name: space, escape, f1, ctrl+z.\n * @type {Readonly<Record<string, string>>}",
    "KEY_HELP": "The keys help, in order: the action, its keys as the help writes them in each language, and the\n"
                " * catalog key of what it does.\n"
                " * @type {ReadonlyArray<{id: string, keys: Record<string, string>, does: string}>}",
}


def _frozen(value: object) -> str:
    """``value`` as a JavaScript expression, objects and arrays frozen all the way down."""
    if isinstance(value, dict):
        inner = ", ".join(f"{json.dumps(k, ensure_ascii=False)}: {_frozen(v)}" for k, v in value.items())
        return f"Object.freeze({{ {inner} }})"
    if isinstance(value, list | tuple):
        return f"Object.freeze([{', '.join(_frozen(v) for v in value)}])"
    return json.dumps(value, ensure_ascii=False)


def names() -> dict[str, object]:
    """Every name the page is given, as plain JSON-able values, read from where it is declared."""
    return {
        "DECK_SIZE": DECK_SIZE,
        "PLACES": list(PLACE_NAMES),
        "STOCK": STOCK.value,
        "WASTE": WASTE.value,
        "ROWS": {"first": [p.value for p in FIRST], "reserve": [p.value for p in RESERVE],
                 "pile": [p.value for p in PILES]},
        "PLACE_KINDS": {p.value: kind(p) for p in PLACES},
        "SOURCES": [p.value for p in PLACES if p in SOURCES],
        "MOVE_KINDS": list(get_args(MoveKind)),
        "TABLE_MOVES": list(TABLE_MOVES),
        "TURN": str(TURN),
        "REDEAL": str(REDEAL),
        "VARIANT_TOKEN": f"^{STORED_TOKEN_PATTERN}$",
        "TOKEN_LETTERS": dict(TOKEN_LETTERS),
        "UNLIMITED_WORDS": list(UNLIMITED_WORDS),
        "MAX_REDEALS": MAX_REDEALS,
        "CANONICAL": {**asdict(CANONICAL), "token": CANONICAL.token},
        "MAX_DEAL": str(MAX_DEAL),  # text: a JSON number loses digits past 2^53 in a browser
        "DEAL_DIGITS": len(str(MAX_DEAL)),
        "RANK_CHARS": RANK_CHARS,
        "SUIT_CHARS": SUIT_CHARS,
        "REFUSALS": {code: {"rule": code.partition(".")[0], "params": list(params)}
                     for code, params in REFUSALS.items()},
        "START_KINDS": list(START_KINDS), "SETTING_DEFAULTS": Settings().to_json(),
        "SETTING_CHOICES": dict(CHOICES),
        "PACES": [asdict(p) for p in PACES],
        "FINISH_MS": FINISH_MS, "SCORE_BIN": SCORE_BIN, "LANGS": list(LANGS), "DEFAULT_LANG": DEFAULT_LANG,
        "GRAMMAR": {lang: {**asdict(g), "plurals": g.plurals} for lang, g in GRAMMAR.items()},
        "RANK_INDICES": {lang: [t(lang, f"rank.{r}.short") for r in range(1, 14)] for lang in LANGS},
        "SUIT_GLYPHS": dict(SUIT_GLYPHS), "KEYMAP": key_map("page"),
        "KEY_HELP": [{"id": a.id, "keys": {lang: keys_display(a, lang) for lang in LANGS}, "does": a.help}
                     for a in actions_for("page")],
    }


def module() -> str:
    """The text of ``vocabulary.js``."""
    out = ["// The game's vocabulary, generated from the engine's declarations (and the play layer's",
           "// start kinds, settings and table of keys) by `python -m firstlast.web.generated`: do not edit.",
           "// The page retypes no name, grammar, limit or key of the game: it imports them from here.", ""]
    for name, value in names().items():
        js = f"new RegExp({json.dumps(value)})" if name == "VARIANT_TOKEN" else _frozen(value)
        out += [f"/** {_DOC[name]} */", f"export const {name} = {js};", ""]
    return "\n".join(out)
