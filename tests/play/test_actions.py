"""The one table of keys (``play.actions``): both faces' keys come from it, agree on
every key they share, answer to the Russian layout's letters, and the page's generated
key map and the help's list of keys are what the table makes."""

from __future__ import annotations

import pytest

from firstlast.i18n import LANGS, catalog, help_markdown
from firstlast.play import actions
from firstlast.play.actions import ACTIONS, key_map, keys_markdown, russian_twin
from firstlast.web import vocabulary


def test_the_faces_agree_on_every_key_they_share() -> None:
    page, tui = key_map("page"), key_map("tui")
    shared = set(page) & set(tui)
    assert {k: page[k] for k in shared} == {k: tui[k] for k in shared}
    # The keys the faces disagreed on (issue 18): one meaning now, in both.
    assert page["h"] == tui["h"] == "hint"
    assert page["?"] == tui["?"] == "help"
    assert page["l"] == tui["l"] == "unfinished"
    assert page["L"] == tui["L"] == "language"
    assert page["d"] == tui["d"] == page["g"] == "deal"
    assert page["r"] == tui["r"] == "redo"
    # A player's every action of the table is offered by both, but for what a face cannot do
    # (the terminal has no sound to mute, issue 28.2).
    only = {a.id for a in ACTIONS if a.faces != actions.FACES}
    assert only == {"faster", "slower", "restart", "quit", "mute"}


def test_every_letter_key_answers_on_the_russian_layout() -> None:
    assert russian_twin("t") == "е" and russian_twin("L") == "Д" and russian_twin("ctrl+z") == "ctrl+я"
    assert russian_twin("1") is None and russian_twin("space") is None
    for face in actions.FACES:
        keys = key_map(face)
        for key, action in list(keys.items()):
            twin = russian_twin(key)
            if twin is not None:
                assert keys[twin] == action, (face, key, twin)
    assert key_map("tui")["р"] == "hint" and key_map("page")["у"] == "summary" and key_map("tui")["ч"] == "review"


def test_no_key_asks_for_two_actions() -> None:
    bad = actions.KeyAction("x", ("t",), "tui.binding.turn", "keys.turn.does")
    table = (*ACTIONS, bad)
    with pytest.raises(ValueError, match="both"):
        original = actions.ACTIONS
        try:
            actions.ACTIONS = table  # type: ignore[misc]
            key_map("tui")
        finally:
            actions.ACTIONS = original  # type: ignore[misc]


@pytest.mark.parametrize("lang", LANGS)
def test_the_help_lists_every_key_of_the_table(lang: str) -> None:
    text = actions.help_markdown(lang)
    table = keys_markdown(lang)
    assert table in text and "<!-- keys -->" not in text
    assert "<!-- keys -->" in help_markdown(lang, "<!-- keys -->")
    for action in ACTIONS:
        assert f"| {actions.keys_display(action, lang)} | {catalog(lang)[action.help]}" in table
    assert "| h (р) |" in table and "| L (Д) |" in table
    assert "<table>" in actions.help_html(lang)


def test_the_pages_key_map_is_the_generated_one() -> None:
    text = vocabulary.module()
    assert vocabulary.MODULE.read_text(encoding="utf-8") == text, "run: python -m firstlast.web.generated"
    assert '"е": "turn"' in text and '"h": "hint"' in text and '"q"' not in text  # quit is the terminal's
    assert text.count('"id":') == len(actions.actions_for("page"))


def test_every_label_and_help_line_is_in_both_catalogs() -> None:
    for lang in LANGS:
        cat = catalog(lang)
        for action in ACTIONS:
            assert cat.get(action.label) and cat.get(action.help), action.id
    by_id = {a.id: a for a in ACTIONS}
    assert by_id["turn"].bar > 0 and by_id["quit"].bar == max(a.bar for a in ACTIONS)
