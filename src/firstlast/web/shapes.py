"""Engine and play-layer objects → the declared answer models (``models``).

Nothing is decided here: what the table shows is the play layer's one view model
(``play.view.TableView``: the engine's ``Position``, the controls of ``play.table`` and
``play.leaving``), which the terminal renders too. The parts that recur from answer to
answer (a card, a variant, a table's refusals) are made once and shared: answers are
only ever encoded, never changed.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final

import msgspec

from ..engine import Card, Move, Position, Variant, rank_char
from ..engine import Movement as EngineMovement
from ..engine.errors import IllegalMoveError
from ..engine.position import TABLE_MOVES
from ..i18n import announce, record_text, t
from ..i18n.table import REVIEW_PLACES, hint_text, pile_review, review_words, table_summary
from ..play import ActionResult as PlayResult
from ..play import Settings as PlaySettings
from ..play import Stats as PlayStats
from ..play import StoredGame
from ..play.commands import refusal
from ..play.daily import Calendar as PlayCalendar
from ..play.stats import RecordNews
from ..play.view import TableView, table_view
from . import models as m
from .errors import play_error

SUITS: Final = "cdhs"
_CARDS: Final = {c: m.Card(id=int(c), rank=c.rank, suit=SUITS[c.suit], deck=c.deck,  # type: ignore[arg-type]
                           symbol=c.symbol) for c in map(Card, range(104))}


def card(c: Card) -> m.Card:
    return _CARDS[c]


@lru_cache(maxsize=256)
def variant(v: Variant) -> m.VariantInfo:
    return m.VariantInfo(redeals=v.redeals, waste_playable=v.waste_playable, privileged_last=v.privileged_last,
                         token=v.token, description=v.describe())


def movement(mv: EngineMovement) -> m.Movement:
    return m.Movement(card=_CARDS[mv.card], from_=mv.source, to=mv.target, face_up=mv.face_up)


#: Every move a player can ask for (the engine's ``TABLE_MOVES``), read once.
_TABLE_MOVES: Final = tuple((text, Move.parse(text)) for text in TABLE_MOVES)


def refusals(pos: Position, legal: list[Move] | tuple[Move, ...], lang: m.Lang) -> dict[str, m.ErrorBody]:
    """The engine's refusal of each table move that is not legal now, so that the page
    can explain a refused click, key or drop at once, without a request answered 409
    (which the browser reports as a failed load in its console): each exactly the body
    such a request answers, its ``text`` in ``lang``."""
    allowed = {str(mv) for mv in legal}
    out = {}
    for text, move in _TABLE_MOVES:
        if text not in allowed and (why := pos.refusal(move, legal)) is not None:  # legal moves worked out once
            out[text] = _refusal_body(move, why[0], tuple(why[1].items()), lang)
    return out


@lru_cache(maxsize=4096)
def _refusal_body(move: Move, code: str, params: tuple[tuple[str, str | int], ...], lang: m.Lang) -> m.ErrorBody:
    # One refusal (its move, code and parameters) recurs from table to table: its body
    # is made once. Keyed by the refusal itself, so it cannot go stale as the rules change.
    return play_error(refusal(move, IllegalMoveError.of(code, **dict(params))), lang)


def state(stored: StoredGame, lang: m.Lang, pos: Position | None = None) -> m.GameState:
    """What the table shows of ``stored`` (at ``pos``, its deal as dealt for a replay):
    everything but the stock's order; its refusals' text in ``lang``. Rendered from the
    play layer's one view model (``play.view``), which the terminal renders too."""
    return game_state(table_view(stored.game, pos, stored), stored, lang)


def game_state(v: TableView, stored: StoredGame, lang: m.Lang) -> m.GameState:
    """The answer model of the view ``v`` of ``stored``: nothing is worked out here."""
    ctl = v.controls
    return m.GameState(
        id=stored.id, deal=str(v.deal), variant=variant(v.variant),
        status=v.status,
        score=v.score, passes=v.passes, redeals_used=v.redeals_used, redeals_left=v.redeals_left,
        first=[None if c is None else _CARDS[c] for c in v.first],
        reserve=[None if c is None else _CARDS[c] for c in v.reserve],
        piles=[[_CARDS[c] for c in pile] for pile in v.piles],
        stock_count=v.stock_count,
        stock_decks=list(v.stock_decks),  # type: ignore[arg-type]  # backs only: the order stays secret
        waste=[_CARDS[c] for c in v.waste],
        active=v.active, need=v.need, need_char=v.need_char,
        need_card=None if v.need_card is None else _CARDS[v.need_card],
        privileged="F8" if v.privileged is not None else None,
        legal_moves=[str(mv) for mv in v.legal],
        # What the page's controls ask for (firstlast.play.table): it knows no rule.
        stock_move=str(ctl.stock), base_move=None if ctl.base is None else str(ctl.base), drop_target=ctl.target,
        pressable=list(ctl.pressable),
        hint=None if v.hint is None else str(v.hint),
        refusals=refusals(v.position, v.legal, lang),
        can_undo=v.can_undo, can_redo=v.can_redo, moves=v.moves,
        created=stored.created, updated=stored.updated, finished=stored.finished, version=stored.version,
        origin=stored.origin, result=stored.result,  # type: ignore[arg-type]
        dealt=v.dealt,  # type: ignore[arg-type]  # the store keeps only start kinds
        abandoned=stored.abandoned is not None, wish=stored.wish is not None,
        leaving=v.leaving,  # type: ignore[arg-type]  # the play layer's policy: the page asks "leave it?" from this
        comes_out=v.comes_out,
    )


#: Between the announcements of the moves of one answer (``step`` makes many).
ANNOUNCE_JOIN: Final = "; "


def announcement(r: PlayResult, lang: m.Lang, *, undo: bool) -> str:
    """An action's card movements as words for a screen reader, in ``lang``: each move's
    (``i18n.announce``, one step at a time, so that no movement of one move is read as
    the refill of another's), taken back when ``undo``."""
    if not r.steps:
        return announce((), lang, undo=undo)
    return ANNOUNCE_JOIN.join(announce(s.movements, lang, undo=undo) for s in r.steps)


def result(r: PlayResult, lang: m.Lang, *, undo: bool = False) -> m.ActionResult:
    """An action's answer: the state as stored, the last move, every card movement in
    order, each move made (``steps``), whether a new game went on the table, and the
    movements in words (``undo``: the action took moves back)."""
    move = r.move
    return m.ActionResult(state=state(r.stored, lang), move=None if move is None else str(move),
                          movements=[movement(mv) for mv in r.movements], steps=[str(s.move) for s in r.steps],
                          new_game=r.new_game, announcement=announcement(r, lang, undo=undo),
                          records=records(r.records, lang))


def records(news: tuple[RecordNews, ...], lang: m.Lang) -> list[m.RecordNews]:
    """The records a game set, with their words in ``lang``."""
    return [m.RecordNews(kind=n.kind, value=n.value, previous=n.previous,
                         text=record_text(n.kind, n.value, n.previous, lang)) for n in news]


def calendar(c: PlayCalendar) -> m.Calendar:
    """A month of deals of the day (``play.daily``)."""
    return m.Calendar(
        today=c.today.isoformat(), month=f"{c.year:04d}-{c.month:02d}",
        days=[m.CalendarDay(date=d.date.isoformat(), deal=str(d.deal), state=d.state, on_day=d.on_day, today=d.today,
                            future=d.future) for d in c.days],
        streaks=c.streaks,
        previous=None if c.previous is None else f"{c.previous[0]:04d}-{c.previous[1]:02d}",
        next=None if c.next is None else f"{c.next[0]:04d}-{c.next[1]:02d}")


def replay(stored: StoredGame, lang: m.Lang) -> m.Replay:
    """The deal as dealt and every move made since, with its movements and the engine's
    facts after each (the page decides no rule). Only what was seen is told: a turned
    card's identity is known once turned, and a redeal's movements list the waste."""
    g = stored.game
    steps = []
    for step, pos in zip(g.steps, g.positions[1:], strict=True):
        need = pos.need
        facts = m.StepFacts(status=pos.status, score=pos.score, passes=pos.passes,
                            redeals_used=pos.redeals_used, redeals_left=pos.redeals_left, active=pos.active,
                            need=need, need_char=None if need is None else rank_char(need),
                            need_card=None if pos.need_card is None else _CARDS[pos.need_card],
                            privileged="F8" if pos.privileged is not None else None)
        steps.append(m.ReplayStep(move=str(step.move), movements=[movement(mv) for mv in step.movements],
                                  facts=facts, announcement=announce(step.movements, lang)))
    return m.Replay(initial=state(stored, lang, g.initial), steps=steps)


def table_words(pos: Position, lang: m.Lang, *, replay: bool = False) -> m.TableWords:
    """The table at ``pos`` in words (``i18n.table``, the terminal's too), in ``lang``,
    both verbosities; made when asked (``GET /api/games/{id}/words``), not with every
    move's answer. A replay's table has no hint (its state has none)."""
    reviews = []
    for place in REVIEW_PLACES:
        title, cards = review_words(pos, place, lang)
        reviews.append(m.PlaceReview(place=place, title=title, cards=cards, sentence=pile_review(pos, place, lang)))
    none = t(lang, "say.hint.none")
    return m.TableWords(hint=none if replay else hint_text(pos, lang), hint_brief=none if replay else hint_text(
        pos, lang, "brief"), summary=table_summary(pos, lang), summary_brief=table_summary(pos, lang, "brief"),
        reviews=reviews)


def stats(s: PlayStats) -> m.Stats:
    return m.Stats(variant=s.variant.token, description=s.variant.describe(), played=s.played, won=s.won,
                   lost=s.lost, abandoned=s.abandoned, win_rate=s.win_rate, current_streak=s.current_streak,
                   best_streak=s.best_streak, average_passes=s.average_passes,
                   score_histogram=s.score_histogram(), fewest_passes=s.fewest_passes,
                   best_lost_score=s.best_lost_score)


def settings(s: PlaySettings) -> msgspec.Struct:
    return msgspec.convert(s.to_json(), m.Settings)  # the one declaration: play/settings.py
