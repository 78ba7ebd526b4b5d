"""The one table of the player's keys, in every face (docs/play.md, "The one table of
keys": the terminal's bindings, the page's key map and both helps are made from it).

Keys are written as the player types them: a character (``t``, ``L`` for Shift+L,
``?``, ``+``) or a name (``space``, ``escape``, ``ctrl+z``, ``f1``). Every letter key
also answers to the letter at the same place on the Russian ЙЦУКЕН layout.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

from .. import i18n
from ..i18n import t

Face = Literal["page", "tui"]
FACES: Final[tuple[Face, ...]] = ("page", "tui")

#: The Russian ЙЦУКЕН layout's letter on each key of the Latin QWERTY layout.
RUSSIAN_LAYOUT: Final = dict(zip("qwertyuiopasdfghjklzxcvbnm", "йцукенгшщзфывапролдячсмить", strict=True))

#: Other keys whose place holds something else on the Russian layout: "?" is typed as ",".
RUSSIAN_SIGNS: Final = {"?": ","}

#: Keys and modifiers by name, as the catalog names them in the help (``key.<name>``).
NAMED_KEYS: Final = frozenset({"space", "escape", "enter", "left", "right", "f1", "ctrl", "shift"})


@dataclass(frozen=True)
class KeyAction:
    """``id``: the action (the faces' handler name); ``keys``: as typed (Russian-layout
    twins are added by ``all_keys``); ``faces``: where it is offered; ``label`` and
    ``help``: catalog keys of its short name and of its line in the help; ``bar``: shown
    in the terminal's key bar, the lowest ``bar`` first to go when the line is short
    (0: never shown); ``place_of_key``: the key itself names the place (1–8: R1–R8)."""

    id: str
    keys: tuple[str, ...]
    label: str
    help: str
    faces: tuple[Face, ...] = FACES
    bar: int = 0
    place_of_key: bool = False

    def all_keys(self) -> tuple[str, ...]:
        """``keys`` with the Russian-layout letter of every letter key after them."""
        out = list(self.keys)
        for key in self.keys:
            twin = russian_twin(key)
            if twin is not None and twin not in out:
                out.append(twin)
        return tuple(out)


def russian_twin(key: str) -> str | None:
    """The letter on the same key of the Russian layout (``t`` → ``е``, ``L`` → ``Д``,
    ``ctrl+z`` → ``ctrl+я``); ``None`` for a key that is not a Latin letter."""
    if key in RUSSIAN_SIGNS:
        return RUSSIAN_SIGNS[key]
    head, _, letter = key.rpartition("+")
    twin = RUSSIAN_LAYOUT.get(letter.lower()) if len(letter) == 1 else None
    if twin is None:
        return None
    twin = twin.upper() if letter.isupper() else twin
    return f"{head}+{twin}" if head else twin


def _a(id_: str, keys: str, *, faces: tuple[Face, ...] = FACES, bar: int = 0, label: str | None = None,
       place_of_key: bool = False) -> KeyAction:
    # ``label``: the key of the action's name where the page's button says the same
    # (one sentence, one key: issue 25.4); else the terminal's own ``tui.binding.<id>``.
    return KeyAction(id_, tuple(keys.split()), label or f"tui.binding.{id_}", f"keys.{id_}.does", faces, bar,
                     place_of_key)


#: Every key of the table, in the order of the help. The letters are the terminal's
#: (README); where the faces differed (h, l, d, r), the table decides: h hint in both,
#: ? help, l unfinished games, L language, g and d deal by number, r redo.
ACTIONS: Final[tuple[KeyAction, ...]] = (
    _a("turn", "t space", bar=9),  # the stock's move: turn, or redeal once it is empty (R9, R10)
    _a("reserve", "1 2 3 4 5 6 7 8", place_of_key=True, label="row.reserve"),  # R1…R8 (R6)
    _a("privileged", "p"),  # F8, the privileged last card (R8)
    _a("base", "b"),  # the active pile's own base (R5)
    _a("waste", "w"),  # the waste's top card under V2
    _a("step", "s", bar=8, label="step"),
    _a("advance", "f", bar=3, label="advance"),
    _a("auto", "a", bar=7, label="auto"),
    _a("pause", "escape", label="pause"),  # and closes what is open (a dialog, the end panel)
    _a("faster", "+ =", faces=("tui",)),
    _a("slower", "- _", faces=("tui",)),
    _a("undo", "u ctrl+z", bar=6, label="undo"),
    _a("redo", "r ctrl+y ctrl+shift+z", bar=1, label="redo"),
    _a("restart", "ctrl+r", faces=("tui",), label="restart"),  # the browser keeps Ctrl+R (reload): a button there
    _a("hint", "h", bar=4, label="hint"),
    _a("summary", "e", label="board_label"),  # the table in a few sentences (issue 19: by ear)
    _a("review", "x"),  # a pile's cards in order, the waste top down
    _a("new", "n", bar=5),
    _a("deal", "g d"),
    _a("variant", "v"),
    _a("unfinished", "l"),
    _a("import", "o"),
    _a("stats", "i", bar=2),
    _a("calendar", "c", label="daily.open"),  # the deals of the day: played and won days, streaks (play/daily.py)
    _a("story", "y"),
    _a("language", "L", label="lang_switch", bar=2),
    _a("settings", "S", bar=1, label="settings"),  # the looks (the terminal's light or dark), the marks, on a wish
    _a("mute", "m", faces=("page",), label="sound"),  # card sounds on or off (the terminal has none)
    _a("help", "? f1", bar=8),
    _a("quit", "q", faces=("tui",), bar=10),
)

def actions_for(face: Face) -> tuple[KeyAction, ...]:
    return tuple(a for a in ACTIONS if face in a.faces)


def key_map(face: Face) -> dict[str, str]:
    """Every key the face answers to (Russian twins included) → its action id."""
    out: dict[str, str] = {}
    for action in actions_for(face):
        for key in action.all_keys():
            if key in out:
                raise ValueError(f"key {key!r} is both {out[key]} and {action.id}")
            out[key] = action.id
    return out


def key_display(key: str, lang: str) -> str:
    """A key as the help writes it: ``Space``/``Пробел``, ``Ctrl+Z``, ``t``, ``L``."""
    parts = key.split("+") if len(key) > 1 else [key]

    def word(part: str) -> str:
        if part in NAMED_KEYS:
            return t(lang, f"key.{part}")
        return part.upper() if len(parts) > 1 else part  # with a modifier, a letter as its key cap

    return "+".join(map(word, parts))


def keys_display(action: KeyAction, lang: str) -> str:
    """An action's keys for the help: ``1 … 8``, or each key with its Russian twin
    (``t (е), Space``)."""
    if action.place_of_key:
        return f"{action.keys[0]} … {action.keys[-1]}"
    shown = []
    for key in action.keys:
        twin = russian_twin(key) if len(key) == 1 else None  # Ctrl+Z is Ctrl+Z on any layout
        shown.append(key_display(key, lang) + (f" ({twin})" if twin else ""))
    return ", ".join(shown)


def keys_markdown(lang: str) -> str:
    """The help's table of keys, both faces in one (a key offered in one face only
    says which)."""
    head = t(lang, "keys.table.head")
    rows = [head, "|---|---|"]
    for action in ACTIONS:
        does = t(lang, action.help)
        if action.faces != FACES:
            does += " " + t(lang, f"keys.only.{action.faces[0]}")
        rows.append(f"| {keys_display(action, lang)} | {does} |")
    return "\n".join(rows)


def help_markdown(lang: str) -> str:
    """The help page with its table of keys (``i18n.help_markdown``)."""
    return i18n.help_markdown(lang, keys_markdown(lang))


def help_html(lang: str) -> str:
    """The help page as the browser shows it: an HTML fragment (the web keeps it). Raw HTML
    in the Markdown is escaped, never passed through (and markdown-it refuses
    ``javascript:`` links), so the fragment is safe to insert."""
    # Imported here: markdown-it is some sixty modules, and only the help page needs it
    # (the site's play worker would load them all before its first answer).
    from markdown_it import MarkdownIt

    html: str = MarkdownIt("commonmark", {"html": False}).enable("table").render(help_markdown(lang))
    return html
