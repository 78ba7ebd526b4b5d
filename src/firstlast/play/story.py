"""The story of a game: how its chance to come out rose and fell, and why it stopped
(docs/story.md holds the full account).

``story_of(game)`` is all data (msgspec Structs); ``Story.describe``/``plain``/``text``
put it in words from the catalogs (``story.*``). No clock is read: the same game tells
the same story, byte for byte, on any machine under any load.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Annotated, Final, Literal

import msgspec
from msgspec import Meta

from ..engine import Game, Position, Status, Step, Variant, play_out
from ..engine.cards import Card, rank_char
from ..engine.places import FIRST, RESERVE, Place
from ..engine.places import PILES as PILE_PLACES
from ..engine.position import PILE_SIZE, PILES, Movement
from ..engine.rng import MASK64, splitmix64
from ..i18n import (
    announce,
    card_name,
    chance_parts,
    chance_text,
    describe_variant,
    number,
    ordinal,
    place_name,
    plural,
    rank_name,
    t,
)
from ..odds import fastline
from ..odds.live import Sampler, chance_to_come_out
from ..odds.stats import VARIANTS
from .fields import PlaceName, Probability, VariantToken

#: Most points on the curve (the deal, the pass starts and the end are always among them).
MAX_POINTS: Final = 80
#: Most points where only the engine samples (no fast forced line): a few seconds of work.
ENGINE_POINTS: Final = 12
#: Points of ``MAX_POINTS`` kept back for narrowing the moments down to single moves.
REFINE_POINTS: Final = 16
#: Samples per point: the kernel plays thousands in milliseconds, the engine a few hundred a second.
KERNEL_SAMPLES: Final = 5000
ENGINE_SAMPLES: Final = 24
#: Samples a story plays at most, in points' samples (docs/story.md): deal 1 plays 115;
#: without the cap a rare game played 960 (4.7 s of CPU; bench/story_cost.py).
WORK_POINTS: Final = 240
#: How many of the largest changes are told as moments.
MOMENTS: Final = 3
#: Most samples of a candidate moment's points, in a point's (docs/story.md, "Clear moments").
CLEAR_FACTOR: Final = 16
#: Version of the story's layout, ``Story.version`` (2: ``what_if``, ``won_on_pass``; moments are clear;
#: 3: told whole, by no clock: no ``complete``).
JSON_VERSION: Final = 3

StopCode = Literal["R11.no_redeal", "R11.waste_empty"]
PlaceCode = Literal["waste", "stock", "reserve", "first", "privileged", "pile"]
_SPARKS: Final = "▁▂▃▄▅▆▇█"


def point_seed(deal: int, index: int) -> int:
    """The estimator's seed for the position after ``index`` moves of ``deal``: SplitMix64
    of (SplitMix64 of the deal) + index, so every point has its own, fixed stream."""
    return splitmix64((splitmix64(deal)[1] + index) & MASK64)[1]


# ------------------------------------------------------------------------- data
# The story's records, declared once with their bounds: the web answers with them as
# they are (``web.models.Story``), so the served schema and the page's typedefs are theirs.
class Point(msgspec.Struct, frozen=True):
    """The estimated chance after ``move`` moves (0: the deal), in pass ``pass_no``;
    ``certain`` when nothing was unknown there (``ChanceEstimate.certain``)."""

    move: int
    pass_no: int = msgspec.field(name="pass")
    score: int
    probability: Probability
    low: Probability
    high: Probability
    wins: int
    samples: int
    certain: bool = False


class MovedCard(msgspec.Struct, frozen=True):
    """A card a moment's move moved (``engine.Movement``): ``card`` its symbol, ``token``
    with its deck, in the order it happened."""

    card: str
    token: str
    deck: Literal[1, 2]
    from_: PlaceName = msgspec.field(name="from")
    to: PlaceName
    face_up: bool

    @classmethod
    def of(cls, m: Movement) -> MovedCard:
        return cls(m.card.symbol, m.card.token, m.card.deck, m.source.value, m.target.value, m.face_up)  # type: ignore[arg-type]  # deck: 1 or 2


class Moment(msgspec.Struct, frozen=True):
    """One of the largest changes of the curve, from the point after ``first_move`` − 1
    moves to the one after ``move`` (``Story.ends``); ``play`` is that last move and
    ``cards`` the cards it moved. Every moment ``story_of`` tells is ``clear``."""

    move: int
    first_move: int
    span: Annotated[int, Meta(description="1: pinned to that one move")]
    pass_no: int = msgspec.field(name="pass")
    play: str
    cards: tuple[MovedCard, ...]
    before: Probability
    after: Probability
    change: float
    clear: Annotated[bool, Meta(description="the two 95 % intervals are apart")]

    @classmethod
    def between(cls, before: Point, after: Point, step: Step) -> Moment:
        """The change from ``before`` to ``after``, ``step`` the move that ended it."""
        return cls(after.move, before.move + 1, after.move - before.move, after.pass_no, str(step.move),
                   tuple(map(MovedCard.of, step.movements)), before.probability, after.probability,
                   after.probability - before.probability, _apart(before, after))

    @property
    def movements(self) -> tuple[Movement, ...]:
        return tuple(Movement(Card.from_token(c.token), Place(c.from_), Place(c.to), c.face_up) for c in self.cards)


class Crossing(msgspec.Struct, frozen=True):
    """Where a won game's chance first stood at 50 % or more (``point``), and the point
    before it (``None`` when the deal itself started there)."""

    point: Point
    previous: Point | None


class CardPlace(msgspec.Struct, frozen=True):
    """Where one card of the needed rank lay: ``code`` and its ``params``, as docs/story.md's
    table lists them."""

    card: str
    token: str
    code: PlaceCode
    params: dict[str, str | int | bool]


class Stop(msgspec.Struct, frozen=True):
    """Why a lost game stopped (R11): nothing fits ``pile``, which needed rank ``need``
    (R3, R4), the stock is empty and no redeal can be made (``code``: none left, or an
    empty waste, R10). ``copies``: where each of the eight cards of that rank lay (R1)."""

    code: StopCode
    pile: Annotated[str, Meta(pattern="^P[1-8]$")]
    need: Annotated[int, Meta(ge=1, le=13)]
    need_char: str
    redeals_used: int
    redeals: Annotated[int | None, Meta(description="null: unlimited")]
    copies: tuple[CardPlace, ...]


class WhatIf(msgspec.Struct, frozen=True):
    """What would have brought a lost deal out (``what_if``)."""

    fewest_redeals: Annotated[Annotated[int, Meta(ge=0)] | None, Meta(description=(
        "the fewest redeals (V1; the game's V2 and V3 kept) with which the same deal comes out; "
        "null: no number does, not even unlimited"))]
    comes_out_on_pass: Annotated[Annotated[int, Meta(ge=1)] | None, Meta(description="the pass it then comes out on")]
    variants_that_come_out: Annotated[tuple[VariantToken, ...], Meta(description=(
        "which of the 20 variants of docs/odds.md (0–3 redeals or unlimited, with or without V2 and V3) "
        "bring the same deal out, in that table's order"))]


def what_if(deal: int, variant: Variant) -> WhatIf:
    """What would have brought ``deal`` out (docs/story.md). A game with R redeals is the
    first R + 1 passes of the unlimited one (docs/odds.md): it comes out exactly when that
    one comes out within R + 1 passes, on the same pass. So the exact forced play-outs of
    the four unlimited variants answer for every redeal count."""
    unlimited = {(w, n): play_out(deal, Variant(None, w, n)) for w in (False, True) for n in (False, True)}

    def comes_out(v: Variant) -> bool:
        out = unlimited[v.waste_playable, v.privileged_last]
        return out.won and (v.redeals is None or out.passes <= v.redeals + 1)

    own = unlimited[variant.waste_playable, variant.privileged_last]
    fewest, passes = (own.passes - 1, own.passes) if own.won else (None, None)
    return WhatIf(fewest, passes, tuple(v.token for v in VARIANTS if comes_out(v)))


class Story(msgspec.Struct, frozen=True, kw_only=True):
    """A game's story (docs/story.md); see the module doc. ``points`` run from the deal
    to ``current``, the chance now (the game's end, or where it stands); ``planned`` is
    how many points the plan had (every one is told)."""

    version: int = JSON_VERSION
    deal: int
    variant: VariantToken
    status: Status
    moves: int
    passes: int
    score: int
    sampler: Literal["kernel", "engine"]
    samples_per_point: int
    planned: int
    points: Annotated[tuple[Point, ...], Meta(description="the curve, the deal first")]
    current: Point
    moments: tuple[Moment, ...]
    crossing: Crossing | None
    low_point: Point | None
    stop: Stop | None
    what_if: Annotated[WhatIf | None, Meta(description="a lost game: what would have brought it out")]
    won_on_pass: Annotated[Annotated[int, Meta(ge=1)] | None, Meta(description="a won game: the pass it came out on")]

    def ends(self, moment: Moment) -> tuple[Point, Point]:
        """The two points ``moment`` runs between."""
        at = {p.move: p for p in self.points}
        return at[moment.first_move - 1], at[moment.move]

    def conclusion(self, lang: str) -> list[str]:
        """How it ended, in sentences, in ``lang``: what a face shows first (the page
        above its chart)."""
        variant = describe_variant(Variant.from_token(self.variant), lang)
        lines = [t(lang, f"story.head.{self.status}", deal=self.deal, variant=variant, score=self.score,
                   moves=plural(lang, "count.moves", self.moves), passes=plural(lang, "story.passes", self.passes),
                   **{"pass": self.passes})]
        if self.won_on_pass is not None:
            lines.append(t(lang, "story.won_on_pass", **{"pass": self.won_on_pass}))
        if self.stop is not None:
            lines.append(stop_sentence(self.stop, lang))
        if self.what_if is not None:
            lines += what_if_sentences(self.what_if, Variant.from_token(self.variant), lang)
        return lines

    def details(self, lang: str) -> list[str]:
        """The rest, in sentences, in ``lang``."""
        first, cur = self.points[0], self.current
        start = chance_text(first, lang)
        lines = [t(lang, "story.chance.now", start=start, now=chance_text(cur, lang))
                 if self.status == "playing" and cur is not first else t(lang, "story.chance.start", chance=start)]
        lines += [moment_sentence(m, *self.ends(m), lang) for m in self.moments]
        if self.crossing is not None:
            lines.append(crossing_sentence(self.crossing, lang))
        if (lo := self.low_point) is not None:
            lines.append(t(lang, "story.low.start" if lo.move == 0 else "story.low", chance=chance_text(lo, lang),
                           move=lo.move, **{"pass": lo.pass_no}))
        if self.stop is not None:
            lines.append(copies_sentence(self.stop, lang))
        return lines

    def describe(self, lang: str) -> list[str]:
        return self.conclusion(lang) + self.details(lang)

    def plain(self, lang: str) -> list[str]:
        """The story's first view, in plain words a player reads in ten seconds, in
        ``lang`` (issue 26): no rule code, variant token or interval (those are
        ``conclusion`` and ``details``, for the curious)."""
        lines = [t(lang, f"story.plain.{self.status}", moves=self.moves, score=self.score,
                   **{"pass": self.won_on_pass or self.passes})]
        if self.stop is not None:
            lines.append(stop_sentence(self.stop, lang, plain=True))
        if self.what_if is not None:
            lines.append(plain_what_if(self.what_if, Variant.from_token(self.variant), lang))
        lines.append(t(lang, "story.plain.start", chance=plain_chance(self.points[0], lang)))
        if self.crossing is not None:
            key = "story.plain.crossing.start" if self.crossing.previous is None else "story.plain.crossing"
            lines.append(t(lang, key, move=self.crossing.point.move))
        lines += [moment_sentence(m, *self.ends(m), lang, plain=True) for m in self.moments]
        if (lo := self.low_point) is not None and lo.move > 0 and not self.moments:
            lines.append(t(lang, "story.plain.low", chance=plain_chance(lo, lang), move=lo.move))
        return lines

    def where(self, lang: str) -> str | None:
        """Where every card of the rank a lost game needed lay, in plain words, or
        ``None`` (not lost): the name of the page's map of them."""
        return None if self.stop is None else copies_sentence(self.stop, lang, plain=True)

    def chart_name(self, lang: str) -> str:
        """The chart of the curve's accessible name."""
        return t(lang, "story.chart.name", moves=plural(lang, "count.moves", self.moves),
                 start=chance_text(self.points[0], lang), end=chance_text(self.current, lang))

    def text(self, lang: str, width: int = 48, *, details: bool = False) -> str:
        """The story's first view for a text face, in ``lang``: a sparkline of the curve,
        then ``plain`` without its first sentence (the terminal's end panel says how it
        ended already: one fact once, issue 26) and ``where``, one a line; ``details``
        adds ``describe``'s sentences after a blank line (the story in the rules' terms)."""
        start, now = (plain_chance(p, lang) for p in (self.points[0], self.current))
        head = f"{start} {sparkline(self.points, width)} {now}"
        where = self.where(lang)
        lines = self.plain(lang)[1:] + ([] if where is None else [where])
        text = "\n".join([head, *("• " + line for line in lines)])
        return text + "\n\n" + "\n".join("• " + line for line in self.describe(lang)) if details else text


def sparkline(points: Sequence[Point], width: int = 48) -> str:
    """The curve in block characters (``points`` averaged into at most ``width``
    columns), ``│`` where a pass begins; ``·`` is exactly 0."""
    if width < 1:
        raise ValueError(f"width must be ≥ 1, not {width}")
    if not points:
        return ""
    cols = min(width, len(points))
    out: list[str] = []
    prev_pass = points[0].pass_no
    for c in range(cols):
        chunk = points[c * len(points) // cols:(c + 1) * len(points) // cols]
        if chunk[-1].pass_no != prev_pass:
            out.append("│")
            prev_pass = chunk[-1].pass_no
        p = sum(pt.probability for pt in chunk) / len(chunk)
        out.append("·" if p == 0 else _SPARKS[min(len(_SPARKS) - 1, int(p * len(_SPARKS)))])
    return "".join(out)


# ------------------------------------------------------------------ in words
def moment_sentence(moment: Moment, before: Point, after: Point, lang: str, *, plain: bool = False) -> str:
    """One moment, between its points ``before`` and ``after`` (``Story.ends``): "Move 37
    (pass 2): queen of hearts from reserve 2 onto pile 1 — chance 31 % → 52 %" (English);
    ``plain``: in plain words, its chances as single figures."""
    chance = plain_chance if plain else chance_text
    params: dict[str, object] = {"move": moment.move, "pass": moment.pass_no, "first": moment.first_move,
                                 "before": chance(before, lang), "after": chance(after, lang)}
    if not plain:
        if moment.span > 1:  # over several moves: no move is named
            return t(lang, "story.moment.span", **params)
        return t(lang, "story.moment", what=announce(moment.movements, lang), **params)
    way = "up" if moment.change > 0 else "down"
    if moment.span > 1:
        return t(lang, f"story.plain.moment.span.{way}", **params)
    # The card that moved, not what followed it (a refill): a sentence to read at a glance.
    return t(lang, f"story.plain.moment.{way}", what=announce(moment.movements[:1], lang), **params)


def crossing_sentence(crossing: Crossing, lang: str) -> str:
    """Where a won game's chance first reached 50 %."""
    c, prev = crossing.point, crossing.previous
    if prev is None:
        return t(lang, "story.crossing.start", chance=chance_text(c, lang))
    return t(lang, "story.crossing" if c.move - prev.move == 1 else "story.crossing.span", first=prev.move + 1,
             move=c.move, before=chance_text(prev, lang), after=chance_text(c, lang), **{"pass": c.pass_no})


def place_phrase(place: CardPlace, lang: str) -> str:
    """One ``CardPlace`` in words: "ten of hearts buried in the waste, 12th from the top
    of 40", "десятка червей — в сборной кучке, 12-я сверху из 40"."""
    p = place.params
    card = card_name(Card.from_token(place.token), lang)
    match place.code:
        case "waste":
            depth = int(p["depth"])
            return t(lang, "story.copy.waste_top" if depth == 1 else "story.copy.waste", card=card,
                     nth=ordinal(depth, lang), size=p["size"])
        case "stock":
            return t(lang, "story.copy.stock", card=card, nth=ordinal(int(p["position"]), lang), size=p["size"])
        case "reserve" | "privileged":
            return t(lang, f"story.copy.{place.code}", card=card, at=place_name(str(p["place"]), lang, "at"))
        case "first":
            return t(lang, f"story.copy.first.{p['rule']}", card=card, at=place_name(str(p["place"]), lang, "at"),
                     pile=str(p["pile"])[1:])
        case _:
            return t(lang, "story.copy.pile_base" if p["base"] else "story.copy.pile", card=card,
                     pile=str(p["pile"])[1:], nth=ordinal(int(p["height"]), lang))


def stop_sentence(stop: Stop, lang: str = "en", *, plain: bool = False) -> str:
    """Why a lost game stopped (R11): which pile needed which rank, and why no redeal
    (``plain``: in plain words, without the redeal counts)."""
    why = "waste_empty" if stop.code == "R11.waste_empty" else "no_redeal_allowed" if stop.redeals == 0 else "no_redeal"
    # English "needed a ten"; Russian "ждала десятку" (the accusative: the pile awaits it).
    need = rank_name(stop.need, lang, "acc", article=True)
    return t(lang, f"story.{'plain.' if plain else ''}stop.{why}", pile=stop.pile[1:], need=need,
             used=stop.redeals_used, allowed="∞" if stop.redeals is None else stop.redeals)


def copies_sentence(stop: Stop, lang: str = "en", *, plain: bool = False) -> str:
    """Where every card of the needed rank lay (R1: eight of each); ``plain``: counted by
    part of the table ("Where the tens lay: 3 in the waste, 5 on the piles.")."""
    if plain:
        counts = dict.fromkeys(("waste", "stock", "reserve", "first", "pile"), 0)  # in the order named
        for c in stop.copies:
            counts["first" if c.code == "privileged" else c.code] += 1
        places = t(lang, "list.join").join(t(lang, f"story.plain.where.{part}", n=n) for part, n in counts.items() if n)
    else:
        places = t(lang, "list.join.parts").join(place_phrase(c, lang) for c in stop.copies)
    return t(lang, "story.copies", rank=rank_name(stop.need, lang, "pl"), places=places)


def what_if_sentences(what: WhatIf, variant: Variant, lang: str = "en") -> list[str]:
    """What would have brought a lost deal out: the fewest redeals, then which variants."""
    if what.fewest_redeals is None:
        lines = [t(lang, "story.what_if.never")]
    else:
        lines = [t(lang, "story.what_if.redeals", redeals=plural(lang, "variant.redeals", what.fewest_redeals),
                   allowed="∞" if variant.redeals is None else variant.redeals,
                   **{"pass": what.comes_out_on_pass})]
    tokens = what.variants_that_come_out
    unlimited = [v.token for v in VARIANTS if v.redeals is None]
    every_unlimited = all(tok in tokens for tok in unlimited)
    # Every unlimited variant comes out (docs/rules.md, V1): said once, not four times.
    named = [tok for tok in tokens if not (every_unlimited and tok in unlimited)]
    names = t(lang, "list.join.parts").join(
        f"{describe_variant(Variant.from_token(tok), lang)} ({tok})" for tok in named)
    params: dict[str, object] = {"n": len(tokens), "total": len(VARIANTS), "variants": names,
                                 "tokens": ", ".join(unlimited)}
    which = (".none" if not tokens else "" if not every_unlimited
             else ".and_unlimited" if named else ".unlimited")
    return [*lines, t(lang, f"story.what_if.variants{which}", **params)]


# ------------------------------------------------------------------ plain words
def plain_chance(point: Point, lang: str) -> str:
    """A chance as a player says it: one figure, no interval ("25 %", "0.4 %"; "almost
    0 %" when the samples saw no win, "almost 100 %" when they saw no loss; "0 %" and
    "100 %" only when certain). Enough decimals to show a small chance at all."""
    p = 100 * point.probability
    if point.certain:
        return t(lang, "percent", p="100" if p >= 50 else "0")
    if point.wins == 0 or p < 0.005:
        return t(lang, "story.plain.pct.nil")
    if point.wins == point.samples or p > 99.5:
        return t(lang, "story.plain.pct.full")
    decimals = 0 if p >= 1 else 1 if p >= 0.1 else 2
    return t(lang, "percent", p=number(round(p, decimals), lang, decimals))


def plain_change(game: Variant, other: Variant, lang: str) -> str:
    """What ``other``'s rules do differently from ``game``'s, in plain words ("if you
    may also play from the waste and with unlimited redeals")."""
    parts: list[str] = []
    for rule, ours, theirs in (("waste", game.waste_playable, other.waste_playable),
                               ("privileged", game.privileged_last, other.privileged_last)):
        if theirs != ours:
            parts.append(t(lang, f"story.plain.change.{rule}_{'on' if theirs else 'off'}"))
    if other.redeals != game.redeals:
        parts.append(t(lang, "story.plain.change.unlimited") if other.redeals is None else
                     t(lang, "story.plain.change.redeals", n=other.redeals,
                       redeals=plural(lang, "variant.redeals", other.redeals)))
    return t(lang, "story.plain.change.join").join(parts)


def plain_what_if(what: WhatIf, variant: Variant, lang: str) -> str:
    """What would have brought a lost deal out, in one plain sentence (other rules: the
    nearest of the variants that bring it out)."""
    if what.fewest_redeals is not None and what.comes_out_on_pass is not None:
        if variant.redeals is not None and what.fewest_redeals <= variant.redeals:
            return t(lang, "story.plain.what_if.same", **{"pass": what.comes_out_on_pass})
        return t(lang, "story.plain.what_if.redeals", n=what.fewest_redeals,
                 redeals=plural(lang, "variant.redeals", what.fewest_redeals),
                 allowed=variant.redeals if variant.redeals is not None else 0,
                 **{"pass": what.comes_out_on_pass})
    others = [Variant.from_token(tok) for tok in what.variants_that_come_out]
    if not others:
        return t(lang, "story.plain.what_if.nothing")

    def distance(v: Variant) -> tuple[int, int]:
        return ((v.waste_playable != variant.waste_playable) + (v.privileged_last != variant.privileged_last)
                + (v.redeals != variant.redeals), 0 if v.redeals is None else v.redeals)

    return t(lang, "story.plain.what_if.other_rules", change=plain_change(variant, min(others, key=distance), lang))


# ------------------------------------------------------------------ the stop (R11)
def card_places(pos: Position, rank: int) -> tuple[CardPlace, ...]:
    """Where every card of ``rank`` lies in ``pos``: waste (top first), stock (next
    first), reserve, first row, then piles, left to right."""
    out: list[CardPlace] = []

    def at(card: Card, code: PlaceCode, **params: str | int | bool) -> None:
        out.append(CardPlace(card.symbol, card.token, code, params))

    waste = pos.waste
    for depth, card in enumerate(reversed(waste), 1):
        if card.rank == rank:
            at(card, "waste", depth=depth, size=len(waste))
    for i, card in enumerate(pos.stock, 1):
        if card.rank == rank:
            at(card, "stock", position=i, size=len(pos.stock))
    for i, slot in enumerate(pos.reserve):
        if slot is not None and slot.rank == rank:
            at(slot, "reserve", place=RESERVE[i].value)
    k = pos.active
    for j, slot in enumerate(pos.first):
        if slot is None or slot.rank != rank:
            continue
        if j == PILES - 1 and pos.privileged is not None:
            at(slot, "privileged", place=FIRST[j].value)
            continue
        rule = "R5" if j == k else "V3" if j == PILES - 1 and not pos.variant.privileged_last else "R3"
        at(slot, "first", place=FIRST[j].value, pile=PILE_PLACES[j].value, rule=rule)
    for j, pile in enumerate(pos.piles):
        for h, card in enumerate(pile, 1):
            if card.rank == rank:
                at(card, "pile", pile=PILE_PLACES[j].value, height=h, base=h == PILE_SIZE)
    return tuple(out)


def stop_of(pos: Position) -> Stop | None:
    """Why ``pos`` is lost (R11), ``None`` unless it is."""
    if pos.status != "lost":
        return None
    k, need = pos.active, pos.need
    assert k is not None and need is not None  # lost: a pile is still active (R11)
    # R10: a redeal needs a redeal left and a non-empty waste; lost means one is missing.
    code: StopCode = "R11.waste_empty" if not pos.waste else "R11.no_redeal"
    return Stop(code, PILE_PLACES[k].value, need, rank_char(need), pos.redeals_used, pos.variant.redeals,
                card_places(pos, need))


# ------------------------------------------------------------------ the curve
def _plan(positions: Sequence[Position], max_points: int) -> tuple[list[int], int]:
    """Indices to estimate: the ones always told (the deal, the end, each pass start,
    R10) and others evenly spaced; and how many points refinement may add. Each point
    has its own seed, so the order they are estimated in changes nothing."""
    n = len(positions) - 1
    must = {0, n} | {i for i in range(1, n) if positions[i].redeals_used != positions[i - 1].redeals_used}
    if n + 1 <= max_points:  # short: every position, nothing to narrow down
        return list(range(n + 1)), 0
    reserve = min(REFINE_POINTS, max(0, max_points - len(must)) // 4)
    spare = max(0, max_points - len(must) - reserve)
    return sorted(must | {round(j * n / (spare + 1)) for j in range(1, spare + 1)}), reserve


def _apart(before: Point, after: Point) -> bool:
    """Whether two points' 95 % intervals do not overlap, even as shown: rounded
    outward by the one display rule (``i18n.chance_parts``), so that a reader sees them
    apart too ("11 % (9–12 %) → 9 % (8–10 %)" is not told; the intervals themselves
    are then apart all the more)."""
    a, b = chance_parts(before), chance_parts(after)
    return b.low > a.high or b.high < a.low


def _largest_gaps(points: Sequence[Point], spent: Callable[[Point], bool] = lambda p: False) -> list[int]:
    """Indices ``g`` (into ``points``) of the ``MOMENTS`` largest changes ``points[g] →
    points[g+1]``, largest first (earlier first on ties; a zero change is no moment),
    that may still be told: clear ones, and unclear ones whose points can still get
    more samples (``spent`` false for one)."""
    gaps = [g for g in range(len(points) - 1) if points[g + 1].probability != points[g].probability
            and (not (spent(points[g]) and spent(points[g + 1])) or _apart(points[g], points[g + 1]))]
    gaps.sort(key=lambda g: (-abs(points[g + 1].probability - points[g].probability), g))
    return gaps[:MOMENTS]


def _crossing_gap(points: Sequence[Point]) -> int | None:
    """Index of the first point at 50 % or more."""
    return next((g for g, p in enumerate(points) if p.probability >= 0.5), None)


def story_of(game: Game, max_points: int | None = None, samples: int | None = None,
             sampler: Sampler = "auto") -> Story:
    """Tell ``game``'s story (docs/story.md). ``max_points`` and ``samples`` (per point)
    default by route: ``MAX_POINTS``, ``KERNEL_SAMPLES`` with the fast forced line,
    ``ENGINE_POINTS``, ``ENGINE_SAMPLES`` without."""
    use_kernel = sampler == "kernel" or (sampler == "auto" and fastline.available())
    if max_points is None:
        max_points = MAX_POINTS if use_kernel else ENGINE_POINTS
    if isinstance(max_points, bool) or not isinstance(max_points, int) or max_points < 2:
        raise ValueError(f"max_points must be a whole number ≥ 2, not {max_points!r}")
    n_samples = samples if samples is not None else KERNEL_SAMPLES if use_kernel else ENGINE_SAMPLES
    positions = game.positions
    steps = game.steps
    plan, reserve = _plan(positions, max_points)

    est: dict[int, Point] = {}
    work = [0]  # samples played so far (a point told again plays its samples again)
    cap = WORK_POINTS * n_samples

    def estimate(i: int, n: int = n_samples) -> None:
        work[0] += n
        # The same seed with more samples: the first ones are the same samples, so a
        # point told again with more is the same estimate, narrowed.
        pos = positions[i]
        e = chance_to_come_out(pos, samples=n, seed=point_seed(game.deal, i), sampler=sampler)
        # A certain point is exact: its interval is the point itself (the estimator's
        # Wilson interval of its samples would claim a doubt there is none of).
        low, high = (e.probability, e.probability) if e.certain else (e.low, e.high)
        est[i] = Point(i, pos.passes, pos.score, e.probability, low, high, e.wins, e.samples, e.certain)

    for i in plan:
        estimate(i)

    # Narrow the largest changes (and a won game's 50 % crossing) down to single moves.
    won = positions[-1].status == "won"
    narrowings = reserve
    while narrowings > 0:
        pts = sorted(est.values(), key=lambda p: p.move)
        gaps = _largest_gaps(pts)
        cross = _crossing_gap(pts) if won else None
        if cross:
            gaps.append(cross - 1)
        wide = next((g for g in gaps if pts[g + 1].move - pts[g].move > 1), None)
        if wide is None:
            break
        estimate((pts[wide].move + pts[wide + 1].move) // 2)
        narrowings -= 1

    # Tell only clear changes (docs/story.md, "Clear moments").
    most = n_samples * CLEAR_FACTOR

    def spent(p: Point) -> bool:
        return p.certain or p.samples >= most

    # A clear change still over several moves is narrowed down with the points the
    # first narrowing left over (its halves told clear again in turn).
    while True:
        pts = sorted(est.values(), key=lambda p: p.move)
        chosen = _largest_gaps(pts, spent)
        unclear = [g for g in chosen if not _apart(pts[g], pts[g + 1])]
        wide = next((g for g in chosen if pts[g + 1].move - pts[g].move > 1), None)
        if not unclear and (wide is None or narrowings <= 0):
            break
        if unclear:
            more = [p for p in (pts[unclear[0]], pts[unclear[0] + 1]) if not spent(p)]
            if work[0] + sum(min(most, 4 * p.samples) for p in more) > cap:
                break  # the story's work is spent: what is still unclear is not told
            for p in more:
                estimate(p.move, min(most, 4 * p.samples))
        elif wide is not None:
            estimate((pts[wide].move + pts[wide + 1].move) // 2)
            narrowings -= 1

    points = tuple(sorted(est.values(), key=lambda p: p.move))
    # Told in the order they happened: the points are in move order, so a gap's index is its order.
    moments = tuple(Moment.between(points[g], points[g + 1], steps[points[g + 1].move - 1])
                    for g in sorted(g for g in _largest_gaps(points, spent) if _apart(points[g], points[g + 1])))
    crossing = low_point = None
    if won:
        c = _crossing_gap(points)
        assert c is not None  # the end of a won game is certain: 100 %
        crossing = Crossing(points[c], points[c - 1] if c else None)
        low_point = min(points, key=lambda p: (p.probability, p.move))
    end = positions[-1]
    return Story(
        deal=game.deal, variant=game.variant.token, status=end.status, moves=len(steps), passes=end.passes,
        score=end.score, sampler="kernel" if use_kernel else "engine", samples_per_point=n_samples,
        points=points, current=points[-1], moments=moments, crossing=crossing, low_point=low_point,
        stop=stop_of(end), planned=len(plan) + reserve,
        what_if=what_if(game.deal, game.variant) if end.status == "lost" else None,
        won_on_pass=end.passes if end.status == "won" else None,
    )
