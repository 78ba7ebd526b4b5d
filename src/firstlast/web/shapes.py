"""Engine and play-layer objects → the declared answer models (``models``). Nothing is
decided here: the table is the play layer's one view (``play.view.TableView``), each
engine value in its JSON form. The parts that recur from answer to answer (a card, a
variant, a table's refusals) are made once and shared: answers are never changed."""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any, Final

import msgspec

from ..engine import SUIT_CHARS, Card, Move, Position, Variant
from ..engine import Movement as EngineMovement
from ..engine.cards import DECK_SIZE
from ..engine.errors import IllegalMoveError
from ..engine.position import TABLE_MOVES
from ..i18n import announce, record_text, t
from ..i18n.table import REVIEW_PLACES, hint_text, review_words, table_summary
from ..play import ActionResult as PlayResult
from ..play import Settings as PlaySettings
from ..play import StoredGame, leaving
from ..play.commands import refusal
from ..play.stats import RecordNews
from ..play.view import table_facts, table_view
from . import models as m
from .errors import error_body

_CARDS: Final = {c: m.Card(id=int(c), rank=c.rank, suit=SUIT_CHARS[c.suit], deck=c.deck,  # type: ignore[arg-type]
                           symbol=c.symbol) for c in map(Card, range(DECK_SIZE))}


@lru_cache(maxsize=256)
def variant(v: Variant) -> m.VariantInfo:
    return m.VariantInfo(redeals=v.redeals, waste_playable=v.waste_playable, privileged_last=v.privileged_last,
                         token=v.token, description=v.describe())


def movement(mv: EngineMovement) -> m.Movement:
    return m.Movement(card=_CARDS[mv.card], from_=mv.source, to=mv.target, face_up=mv.face_up)


#: Every move a player can ask for (the engine's ``TABLE_MOVES``), read once.
_TABLE_MOVES: Final = tuple((text, Move.parse(text)) for text in TABLE_MOVES)


def refusals(pos: Position, legal: list[Move] | tuple[Move, ...], lang: m.Lang) -> dict[str, m.ErrorBody]:
    """Each table move not legal now → the body a request for it answers, ``text`` in
    ``lang`` (docs/web-api.md, "Shapes, in words"): the page explains a refused click at
    once, without a 409 that the browser would report as a failed load in its console."""
    allowed = {str(mv) for mv in legal}
    return {text: _refusal_body(move, why[0], tuple(why[1].items()), lang) for text, move in _TABLE_MOVES
            if text not in allowed and (why := pos.refusal(move, legal)) is not None}  # legal moves worked out once


@lru_cache(maxsize=4096)
def _refusal_body(move: Move, code: str, params: tuple[tuple[str, str | int], ...], lang: m.Lang) -> m.ErrorBody:
    # One refusal (its move, code and parameters) recurs from table to table: its body
    # is made once. Keyed by the refusal itself, so it cannot go stale as the rules change.
    return error_body(refusal(move, IllegalMoveError(code, **dict(params))), lang)


#: An engine value as the answers carry it (its type: ``models.json_form``).
_AS_JSON: Final[dict[type, Callable[[Any], object]]] = {Card: _CARDS.__getitem__, Move: str, Variant: variant}


def as_json(x: object) -> object:
    if type(x) is tuple:
        return [as_json(y) for y in x]
    to = _AS_JSON.get(type(x))
    return x if to is None else to(x)


def fields_json(record: msgspec.Struct) -> dict[str, Any]:
    """A play layer's record (``play.view``), each field as ``models.json_form`` declares it."""
    return {name: as_json(getattr(record, name)) for name in record.__struct_fields__}


def state(stored: StoredGame, lang: m.Lang, pos: Position | None = None) -> m.GameState:
    """The table of ``stored`` (at ``pos``: a replay's deal as dealt) and its facts."""
    v = table_view(stored.game, pos, stored)
    return m.GameState(
        **fields_json(v), id=stored.id, refusals=refusals(
            stored.game.position if pos is None else pos, v.legal_moves, lang),
        created=stored.created, updated=stored.updated, finished=stored.finished, version=stored.version,
        origin=stored.origin, result=stored.result, abandoned=stored.abandoned is not None,  # type: ignore[arg-type]
        dealt=stored.dealt,  # type: ignore[arg-type]  # the store keeps only start kinds
        wish=stored.wish is not None, leaving=leaving(stored))


def result(r: PlayResult, lang: m.Lang, *, undo: bool = False) -> m.ActionResult:
    """An action's answer (``undo``: it took moves back)."""
    # Announced one step at a time, so that no movement of one move is read as the
    # refill of another's (``step`` makes many); no step: nothing moved.
    said = "; ".join(announce(s.movements, lang, undo=undo) for s in r.steps) or announce((), lang, undo=undo)
    return m.ActionResult(state=state(r.stored, lang), move=str(r.steps[-1].move) if r.steps else None,
                          movements=[movement(mv) for mv in r.movements], steps=[str(s.move) for s in r.steps],
                          new_game=r.new_game, announcement=said, records=records(r.records, lang))


def records(news: tuple[RecordNews, ...], lang: m.Lang) -> list[m.RecordNews]:
    return [m.RecordNews(*msgspec.structs.astuple(n), text=record_text(n.kind, n.value, n.previous, lang))
            for n in news]


def replay(stored: StoredGame, lang: m.Lang) -> m.Replay:
    """The deal as dealt and every move made since, with its movements and the engine's
    facts after each (the page decides no rule). Only what was seen is told: a turned
    card's identity is known once turned, and a redeal's movements list the waste."""
    g = stored.game
    return m.Replay(initial=state(stored, lang, g.initial), steps=[
        m.ReplayStep(move=str(step.move), movements=[movement(mv) for mv in step.movements],
                     facts=m.StepFacts(**fields_json(table_facts(pos))), announcement=announce(step.movements, lang))
        for step, pos in zip(g.steps, g.positions[1:], strict=True)])


def table_words(pos: Position, lang: m.Lang, *, replay: bool = False) -> m.TableWords:
    """The table at ``pos`` in words (``i18n.table``, the terminal's too), both
    verbosities; made when asked, not with every move's answer. A replay's table has no
    hint (its state has none)."""
    reviews = []
    for place in REVIEW_PLACES:
        title, cards, sentence = review_words(pos, place, lang)
        reviews.append(m.PlaceReview(place=place, title=title, cards=cards, sentence=sentence))
    none = t(lang, "say.hint.none")
    return m.TableWords(hint=none if replay else hint_text(pos, lang), hint_brief=none if replay else hint_text(
        pos, lang, "brief"), summary=table_summary(pos, lang), summary_brief=table_summary(pos, lang, "brief"),
        reviews=reviews)


def settings(s: PlaySettings) -> msgspec.Struct:
    return msgspec.convert(s.to_json(), m.Settings)  # the one declaration: play/settings.py
