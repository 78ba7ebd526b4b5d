"""The HTTP API's declared models (docs/web-api.md): one msgspec Struct per request body,
query and answer; ``schema`` turns them into the OpenAPI document, the doc's reference
and the page's typedefs. Bounds declared here are the contract's; the play layer stays
the authority for what needs the game (a deal number's range, a move's legality).
"""

from __future__ import annotations

import datetime as dt
from types import UnionType
from typing import TYPE_CHECKING, Annotated, Any, Final, Literal, Union, get_args, get_origin

import msgspec
from msgspec import UNSET, Meta, UnsetType

from .. import engine
from ..engine import MAX_REDEALS, Variant
from ..engine.cards import DECK_SIZE
from ..engine.position import TABLE_MOVES
from ..play import MAX_STEPS, StartKind, stats, story
from ..play import GameSummary as StoredSummary
from ..play.backup import Backup, Params
from ..play.chance import MAX_ROUNDS, SAMPLES_PER_ROUND
from ..play.daily import MONTH_PATTERN
from ..play.daily import Calendar as Calendar  # the play layer's one declaration, answered as it is
from ..play.fields import MAX_SAFE, MAX_WISH, DealNumber, DealText, KeptResult, Lang, Origin, Probability, VariantToken
from ..play.fields import PlaceName as Place
from ..play.service import Leaving
from ..play.settings import Settings as PlaySettings
from ..play.settings import SettingsJSON
from ..play.view import TableFacts, TableView

__all__ = ["UNSET", "Backup", "Lang", "UnsetType"]

Version = Annotated[int, Meta(ge=0, le=MAX_SAFE, description="the State's version the page acted on")]
Redeals = Annotated[int, Meta(ge=0, le=MAX_REDEALS)]
if TYPE_CHECKING:
    MoveText = str
else:
    #: The moves a player can ask for: the engine's words (``TABLE_MOVES``), a literal
    #: for the schema, made from them (never retyped).
    MoveText = Literal[TABLE_MOVES]
ListStatus = Literal["finished", "unfinished", "playing", "abandoned", "won", "lost"]
#: The policy's last refinement round (``ChanceQuery.round``), so that a request at the
#: bounds stays near a second of CPU (issue 25.2; ``bench/request_cost.py``).
MAX_ROUND: Final = MAX_ROUNDS - 1


class Body(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """A request body: unknown fields are refused."""


# ---------------------------------------------------------------------------- requests
class VariantSpec(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """Rules V1–V3; a missing field takes the canonical value. ``token`` and
    ``description`` are ignored, so a State's variant can be sent back as it came."""

    redeals: Annotated[Redeals | None, Meta(description="null: unlimited")] = 3
    waste_playable: bool = False
    privileged_last: bool = True
    token: str | UnsetType = UNSET
    description: str | UnsetType = UNSET


class NewGame(Body):
    """A new game on the table. ``how`` defaults to ``number`` when a deal is given,
    else ``random``; ``variant`` to the player's setting (for ``again``, the table's); a
    variant given is this game's only, unless ``make_default``."""

    how: StartKind | None = None
    deal: DealNumber | DealText | None = None
    variant: VariantSpec | VariantToken | None = None
    date: Annotated[dt.date, Meta(description=(
        "with how=daily: the date (YYYY-MM-DD) whose deal of the day to play (an earlier day of the calendar); "
        "today by default, never a day to come"))] | None = None
    wish: Annotated[str, Meta(max_length=MAX_WISH, description=(
        "the wish made before the deal (the setting wish; \"\" in silence): kept privately with the game, "
        "in the player's backup only"))] | None = None
    make_default: Annotated[bool, Meta(description=(
        "the variant given becomes the player's setting for new games too; else it is this game's alone"))] = False


#: What a body's fields must be together, beyond each field (JSON Schema, merged into
#: the model's schema by ``schema``); the handler checks it (``routes.games.new_game``).
RULES: Final[dict[type[msgspec.Struct], dict[str, Any]]] = {
    NewGame: {"anyOf": [
        {"description": "without how: number when a deal is given, else random",
         "properties": {"how": {"type": "null"}}},
        {"description": "how=number needs a deal",
         "properties": {"how": {"const": "number"}, "deal": {"type": ["integer", "string"]}},
         "required": ["how", "deal"]},
        {"description": "every other how takes no deal",
         "properties": {"how": {"enum": [k for k in get_args(StartKind) if k != "number"]}, "deal": {"type": "null"}},
         "required": ["how"]},
    ]},
}


class CalendarQuery(msgspec.Struct, kw_only=True):
    month: Annotated[str, Meta(pattern=MONTH_PATTERN, description="YYYY-MM; today's month by default")] | None = None


class MoveRequest(Body):
    move: MoveText
    version: Version | None = None


class StepRequest(Body):
    n: Annotated[int, Meta(ge=1, le=MAX_STEPS, description="forced moves to make")] = 1
    version: Version | None = None


class ActionRequest(Body):
    """advance, undo, redo, restart."""

    version: Version | None = None


class OpenRequest(Body):
    """No fields: the game goes on the table."""


class ImportRequest(Body):
    """A game record (engine format) as text; a byte-order mark is allowed."""

    record: Annotated[str, Meta(description="at most 1 Mi characters")]


#: A change of settings (``play.settings.Settings``, field by field: its types and bounds);
#: the variant as a token or as its rules.
SettingsChange: Final = msgspec.defstruct(
    "SettingsChange", [(f.name, (VariantSpec | VariantToken if f.type is Variant else f.type) | UnsetType | None, UNSET)
                       for f in msgspec.structs.fields(PlaySettings)],
    bases=(Body,), namespace={"__doc__": "The keys to change; ``null`` restores a key's default."})


class PageQuery(msgspec.Struct, kw_only=True):
    """The table page's address (``routes.pages``): a value that is not well formed is
    dropped, not refused, so every text is accepted."""

    player: Annotated[str, Meta(description="sign in as this known player (303 to /)")] | UnsetType = UNSET
    deal: Annotated[str, Meta(description="the deal the page starts, if ASCII digits")] | UnsetType = UNSET
    variant: Annotated[str, Meta(description="its variant, if a variant token")] | UnsetType = UNSET
    lang: Annotated[str, Meta(description="the page's language, if ru or en")] | UnsetType = UNSET


class GamesQuery(msgspec.Struct, kw_only=True):
    status: ListStatus | None = None
    limit: Annotated[int, Meta(ge=1, le=1000)] = 100


class ChanceQuery(msgspec.Struct, kw_only=True):
    samples: Annotated[int, Meta(ge=100, le=SAMPLES_PER_ROUND, description=(
        "samples of each round; the default, and the most, is every face's (play.chance.SAMPLES_PER_ROUND)"))
    ] = SAMPLES_PER_ROUND
    round: Annotated[int, Meta(ge=0, le=MAX_ROUND, description=(
        "refinement round: each round draws new, independent samples of the same position, pooled with "
        "rounds 0 … round − 1; at most the policy's last (play.chance.MAX_ROUNDS − 1)"))] = 0


class WordsQuery(msgspec.Struct, kw_only=True):
    step: Annotated[int, Meta(ge=0, description=(
        "a replay's step: the table after this many moves, as the replay shows it (no hint); "
        "the default is the table as it stands"))] | None = None


# ---------------------------------------------------------------------------- answers
class Answer(msgspec.Struct, kw_only=True, gc=False):
    """An answer shape (never decoded from a client)."""


class ErrorBody(Answer):
    """Every refusal. ``code`` and ``params`` are stable; ``error`` is the English
    sentence and ``text`` the same in the player's language, which the page shows (the
    server says every refusal, cards in words: ``i18n.error_text``); ``rule`` for a
    rule's refusal, ``line`` for a record's."""

    error: str
    code: str
    params: Params
    text: Annotated[str, Meta(description="the refusal in the player's language (i18n.error_text)")]
    rule: str | UnsetType = UNSET
    line: int | UnsetType | None = UNSET


class Card(Answer):
    id: Annotated[int, Meta(ge=0, le=DECK_SIZE - 1)]
    rank: Annotated[int, Meta(ge=1, le=13)]
    suit: Literal["c", "d", "h", "s"]
    deck: Literal[1, 2]
    symbol: str


class VariantInfo(Answer):
    redeals: Annotated[int | None, Meta(description="null: unlimited")]
    waste_playable: bool
    privileged_last: bool
    token: str
    description: str


class Movement(Answer):
    """One card moving, in the order it happened."""

    card: Card
    from_: Place = msgspec.field(name="from")
    to: Place
    face_up: bool


#: How an engine value is answered (``shapes.as_json`` makes it so).
_JSON_TYPES: Final[dict[object, object]] = {engine.Card: Card, engine.Move: str, engine.Variant: VariantInfo,
                                           engine.Place: Place}


def _json_type(t: Any) -> Any:
    args = get_args(t)
    if t in _JSON_TYPES:
        return _JSON_TYPES[t]
    if get_origin(t) is Annotated:
        return Annotated[(_json_type(args[0]), *t.__metadata__)]
    if get_origin(t) is tuple:
        return list[_json_type(args[0])]  # type: ignore[misc]
    return Union[tuple(map(_json_type, args))] if get_origin(t) in (Union, UnionType) else t  # noqa: UP007


def json_form(record: type[msgspec.Struct]) -> type[Answer]:
    """A play layer's record (``play.view``) as the web answers it: the same fields,
    bounds and defaults, each engine value in its JSON form (``_JSON_TYPES``)."""
    return msgspec.defstruct(f"{record.__name__}JSON", [  # type: ignore[return-value]
        (f.name, _json_type(f.type), f.default) for f in msgspec.structs.fields(record)], bases=(Answer,), kw_only=True)


if TYPE_CHECKING:
    TableJSON = Answer
    FactsJSON = Answer
else:
    TableJSON, FactsJSON = json_form(TableView), json_form(TableFacts)


class GameState(TableJSON):
    """A game as the table shows it: everything but the stock's order. The table is the
    play layer's view (``play.view.TableView``, its fields); the rest is the stored game's."""

    id: str
    refusals: Annotated[dict[str, ErrorBody], Meta(description="each table move not legal now: its refusal")]
    created: str
    updated: str
    finished: str | None
    version: Annotated[int, Meta(description="send it back with actions")]
    origin: Origin
    dealt: Annotated[StartKind | None, Meta(description=(
        "how the deal was chosen (POST /api/games how; winnable: it comes out); null for an imported or older game"))]
    result: KeptResult
    abandoned: bool
    wish: Annotated[bool, Meta(description=(
        "a wish was made before the deal (its words stay in the store and the backup: never sent)"))]
    leaving: Annotated[Leaving, Meta(description=(
        "what becomes of this game if another takes the table (play.leaving); a face asks first on abandon"))]


class RecordNews(stats.RecordNews, frozen=True, kw_only=True):
    """A personal record the game set when it ended (play.stats.news)."""

    text: Annotated[str, Meta(description="the record in words, in the player's language")]


class RecordList(Answer):
    records: Annotated[list[RecordNews], Meta(description="the records the game set when it ended")]


class ActionResult(Answer):
    """An action's answer: the state as stored, every move made (for undo, the one taken
    back) and every card movement in order."""

    state: GameState
    move: str | None
    movements: list[Movement]
    steps: list[str]
    new_game: bool
    announcement: Annotated[str, Meta(description=(
        "the movements in words for a screen reader, in the player's language (i18n.announce)"))]
    records: Annotated[list[RecordNews], Meta(description=(
        "the personal records the game set, when this action ended it (the end panel says them)"))] = []


class StepFacts(FactsJSON):
    """The engine's view after a replayed step (``play.view.TableFacts``)."""


class ReplayStep(Answer):
    move: str
    movements: list[Movement]
    facts: StepFacts
    announcement: Annotated[str, Meta(description=(
        "the step's movements in words for a screen reader, in the player's language (i18n.announce)"))]


class PlaceReview(Answer):
    """One place's review (i18n.table.review_words): its title and its cards in order."""

    place: Annotated[str, Meta(description="P1 … P8, waste, or rows (the first row and the reserve)")]
    title: str
    cards: list[str]
    sentence: Annotated[str, Meta(description="the title and the cards as one sentence, to be said")]


class TableWords(Answer):
    """The table in words (i18n.table), in the player's language, both verbosities: the
    page shows and says these, and words nothing of them itself."""

    hint: Annotated[str, Meta(description="the hint as a sentence, verbosity full (i18n.table.hint_text)")]
    hint_brief: str
    summary: Annotated[str, Meta(description="the table summary, verbosity full (i18n.table.table_summary)")]
    summary_brief: str
    reviews: Annotated[list[PlaceReview], Meta(description="each place's review, in the order the review offers")]


class Replay(Answer):
    """The deal as dealt and every move made since."""

    initial: GameState
    steps: list[ReplayStep]


class GameSummary(StoredSummary, frozen=True):
    """A game in a list: the store's one declaration (``play.GameSummary``) as it is,
    its deal and variant with their bounds."""

    deal: DealText
    variant: VariantToken


class GameList(Answer):
    games: Annotated[list[GameSummary], Meta(description="latest first")]


class StatsList(Answer):
    variants: Annotated[list[stats.Stats], Meta(description="the canonical variant first")]


#: The player's settings as answered: the play layer's one declaration
#: (``play.settings.Settings``), the variant as its token.
Settings: Final = SettingsJSON


class ChanceFigure(Answer):
    """An estimate as a face shows it: wins of samples, the 95 % interval, in words."""

    probability: Probability
    low: Probability
    high: Probability
    samples: Annotated[int, Meta(ge=0, description="0: the game is decided, known exactly")]
    wins: Annotated[int, Meta(ge=0, description="samples that came out")]
    text: Annotated[str, Meta(description="the figure in the player's language (i18n.chance_text)")]


class ChancePool(ChanceFigure):
    """The rounds of one position this server has estimated so far, up to the one
    asked for, pooled (wins and samples summed, ``ChanceEstimate.merge``): the figure a
    face shows while it refines, worded by the one display rule."""

    rounds: Annotated[int, Meta(ge=1, description="how many rounds are pooled")]
    short: Annotated[str, Meta(description=(
        "the pooled figure in a few characters, the meter's (i18n.chance_text, short: \"25 %\", \"20–25 %\", "
        "\"< 1 %\"); text, with its interval, is the meter's help"))]


class Chance(ChanceFigure):
    """One round's estimate (``round``); rounds of one position are independent, and
    ``pooled`` merges those estimated so far (a face shows that, and words nothing)."""

    certain: Annotated[bool, Meta(description="nothing is unknown: exact, no round adds anything")]
    round: Annotated[int, Meta(ge=0, le=MAX_ROUND, description=(
        "the round answered: the one asked for, or an earlier one where rounds before it were missing and "
        "the engine samples alone (one round per request, play.chance.one_round_per_ask); next_round "
        "then names the one to ask for"))]
    pooled: ChancePool
    next_round: Annotated[int | None, Meta(description=(
        "the round to ask for next while the player is idle; null: refining further adds nothing "
        "(play.chance's policy, the same in every face)"))]


# ---------------------------------------------------------------------------- the story
#: The play layer's record field by field (its parts are answered as declared there), the
#: deal as text as everywhere in the API, then its words.
Story: Final = msgspec.defstruct("Story", [
    *((f.name, DealText if f.name == "deal" else f.type, f.default) for f in msgspec.structs.fields(story.Story)),
    ("sentences", Annotated[list[str], Meta(description="the story told in the player's language")]),
    ("conclusion", Annotated[list[str], Meta(description=(
        "the first sentences: the result, why it stopped and what would have brought it out, "
        "or the pass it came out on"))]),
    ("details", Annotated[list[str], Meta(description="the other sentences: the chance, the moments, the copies")]),
    ("chart_name", Annotated[str, Meta(description="a short name of the chart (its accessible name)")]),
    ("plain", Annotated[list[str], Meta(description=(
        "the story's first view in plain words (Story.plain): how it ended, why, what would have brought "
        "it out, the moments that mattered; no rule code, variant token or interval"))], []),
    ("where", Annotated[str | None, Meta(description=(
        "a lost game: where the needed rank's cards lay, counted in plain words (the page's map's name)"))], None),
], kw_only=True, namespace={"__doc__": "The story of a game (docs/story.md, ``play.story.Story``) and its words\n"
                            "in the player's language: ``sentences`` (``Story.describe``), ``conclusion``\n"
                            "then ``details``."})


# ---------------------------------------------------------------------------- backups
class RestoreRequest(Body):
    """A backup file's text (docs/backup.md), as a string; a byte-order mark is allowed."""

    backup: Annotated[str, Meta(description="the file's text, at most 16 Mi characters")]


class SkippedGame(Answer):
    """A game of the file a restore left out, and why (docs/backup.md)."""

    n: Annotated[int, Meta(ge=1, description="its place in the file's games, from 1")]
    id: Annotated[str | None, Meta(description="its id, when it could be read")]
    deal: Annotated[str | None, Meta(description="its deal, when it could be read")]
    error: ErrorBody


class RestoreReport(Answer):
    """What a restore did (the merge rule: docs/backup.md)."""

    games: Annotated[int, Meta(description="games in the file")]
    added: Annotated[int, Meta(description="games that were not here")]
    updated: Annotated[int, Meta(description="games here that took the file's newer copy, or its result")]
    kept: Annotated[int, Meta(description="games already here as they are, or newer here")]
    settings: Annotated[list[str], Meta(description="the settings taken from the file (those still at their default)")]
    table: Annotated[bool, Meta(description="the file's game went on the table (there was none)")]
    skipped: Annotated[list[SkippedGame], Meta(description="damaged games left out; every other one was restored")]
    text: Annotated[str, Meta(description="what it did in the player's language, the games left out named")]


#: Every answer leaves through this one encoder (made once: no per-request setup).
encode: Final = msgspec.json.Encoder().encode
