"""The terminal's keys, made from the play layer's one table (``play.actions``): the
table's bindings, and the key bar at the foot of every screen, in the player's language.

The key bar is ours rather than Textual's ``Footer``: it says each screen's own keys
(a dialog's, not the table's under it), in the language chosen (from the catalogs, no
private Textual API), and when the line is short it drops the least needed keys first,
so "q Quit" is never the one cut off.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from rich.cells import cell_len
from rich.text import Text
from textual.binding import Binding
from textual.reactive import reactive
from textual.widget import Widget

from ..i18n import DEFAULT_LANG, t
from ..play.actions import actions_for, russian_twin

#: The table's actions that the screen does with another of its actions and an argument;
#: each other is the screen's ``action_<id>``.
DONE_AS: Final[dict[str, tuple[str, str]]] = {
    "privileged": ("play", "F8"), "waste": ("play", "waste"), "step": ("act", "step"), "advance": ("act", "advance"),
    "redo": ("act", "redo"), "restart": ("act", "restart"), "faster": ("speed", "1"), "slower": ("speed", "-1"),
}


def _queued(name: str, *args: str) -> str:
    """The binding's action: ``queue`` puts the screen's action in its own message queue,
    so keys act one at a time, in the order pressed, each after the writes before it.
    One argument at most: Textual passes an action as many as its signature names."""
    return "queue(" + ", ".join(repr(a) for a in (name, *args)) + ")"


def table_bindings() -> list[Binding]:
    """The game screen's bindings: every action of the table the terminal offers, on
    its keys and their Russian-layout twins. They are priority bindings: the app sees
    them as the key arrives and queues the action on the game screen at once (they are
    the game screen's, so a dialog on top of it keeps its keys)."""
    out: list[Binding] = []
    for action in actions_for("tui"):
        # Textual names a typed character's key itself ("?" is question_mark), but a comma
        # would split the binding's list of keys: it is bound by its name.
        keys = ["comma" if k == "," else k for k in action.all_keys()]
        if action.place_of_key:  # 1–8: the key names the reserve card
            out += [Binding(k, _queued("play", f"R{k}"), t("en", action.label), show=False, priority=True,
                            id=f"table.{action.id}.{k}") for k in keys]
            continue
        out.append(Binding(",".join(keys), _queued(*DONE_AS.get(action.id, (action.id,))), t("en", action.label),
                           show=False, priority=True, id=f"table.{action.id}"))
    return out


def binding(keys: str, action: str, key: str, show: bool = True) -> Binding:
    """A key binding described by the catalog string ``key`` (the key bar says it in the
    language of the moment). Each letter also answers on the Russian layout, from the
    one table of twins (``play.actions.russian_twin``), as the table's own keys do."""
    names = keys.split(",")
    twins = [twin for name in names if (twin := russian_twin(name)) is not None and twin not in names]
    return Binding(",".join([*names, *twins]), action, t(DEFAULT_LANG, key), show=show, id=key)


@dataclass(frozen=True)
class BarKey:
    """One key on the key bar: ``key`` as shown, ``label`` its catalog key, ``rank``
    how much it is needed (the lowest goes first when the line is short)."""

    key: str
    label: str
    rank: int = 5


#: The table's key bar: the table's actions that have a place on it.
TABLE_KEYS: Final = tuple(BarKey(a.keys[0], a.label, a.bar) for a in actions_for("tui") if a.bar > 0)


class KeyBar(Widget):
    """The keys of the screen it is on, in ``lang``."""

    lang: reactive[str] = reactive("en")

    def __init__(self, keys: Sequence[BarKey] = (), lang: str = "en", id: str | None = None) -> None:
        super().__init__(id=id)
        self.keys = tuple(keys)
        self.set_reactive(KeyBar.lang, lang)

    def render(self) -> Text:
        """The keys in their order, the least needed left out until the rest fit."""
        shown = list(self.keys)

        def line() -> Text:
            return Text("  ").join(Text.assemble((k.key, "bold #ffd24a"), (" " + t(self.lang, k.label), "#e8f3ea"))
                                   for k in shown)

        text = line()
        while shown and cell_len(text.plain) > self.size.width:
            shown.remove(min(reversed(shown), key=lambda k: k.rank))
            text = line()
        return text


#: The side bar's text width at its narrowest (app.py: ``SIDE_WIDTH - 2``, less its padding).
SIDE_TEXT_WIDTH: Final = 26


def side_keys(lang: str) -> str:
    """The side bar's short list of keys (``t turn  s step …``), from the table,
    wrapped to ``SIDE_TEXT_WIDTH``."""
    lines: list[str] = []
    line = ""
    for action in actions_for("tui"):
        if action.id in ("faster", "slower", "pause", "restart"):
            continue
        key = f"{action.keys[0]}–{action.keys[-1]}" if action.place_of_key else action.keys[0]
        label = t(lang, action.label)
        item = f"{key} {label if action.id == 'language' else label.lower()}"  # a language keeps its capital
        if line and cell_len(line) + 2 + cell_len(item) > SIDE_TEXT_WIDTH:
            lines.append(line)
            line = item
        else:
            line = f"{line}  {item}" if line else item
    return "\n".join([*lines, line])
