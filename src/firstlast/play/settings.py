"""A player's settings: one schema, read and written by every face.

Stored as JSON with the player; ``Settings.from_stored`` reads it leniently (a value
this version does not understand falls back to its default), ``Settings.updated``
checks a change strictly (``PlayError`` naming the setting). A browser may cache the
settings in ``localStorage`` but the stored ones always win.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar, Final, Literal

from ..engine import CANONICAL, MAX_REDEALS, Variant
from ..engine import parse_redeals as read_redeals
from .errors import PlayError

Lang = Literal["ru", "en"]
LANGS: Final = ("ru", "en")
#: How much a screen reader is told: ``brief`` (each move, the hint's move, a summary
#: when Auto stops) or ``full`` (also what the active pile needs after a move, a running
#: summary during Auto, why the hint turns). The page reads it (docs/page.md).
Verbosity = Literal["brief", "full"]
VERBOSITIES: Final = ("brief", "full")


@dataclass(frozen=True)
class Pace:
    """One pace of play (the ``speed`` setting), the same for every face: ``name`` (its
    words are the catalogs' ``speed_<n>``), Auto's rate in moves per second (``None``:
    as fast as the face can, no animation) and one card's flight on the page, ms (0:
    cards move at once). At the faster paces Auto starts a move before the last one
    has landed, so several cards are in the air at once (docs/page.md)."""

    name: str
    moves_per_s: float | None
    flight_ms: int


#: Pace of play, by the ``speed`` setting: 0 instant (no animation), 1 slow, 2 normal,
#: 3 fast. The page (vocabulary.js, generated) and the terminal (tui.app) read it here.
PACES: Final = (Pace("instant", None, 0), Pace("slow", 2.0, 480), Pace("normal", 8.0, 300),
                Pace("fast", 32.0, 220))
#: Pace of play: 0 instant (no animation), 1 slow, 2 normal, 3 fast.
SPEEDS: Final = range(0, len(PACES))
DEFAULT_SPEED: Final = 2
#: How long Finish's cascade of the rest of a game may take on the page, at most (ms);
#: the moves are spaced so that a whole game fits (issue 26).
FINISH_MS: Final = 4000
#: Looks (issue 28): the table's cloth, the cards' backs, the layout. Every one is drawn
#: by the project (web/static/css/table.css, web/static/js/cards.js); ``paper`` is the
#: light one (the terminal then takes a light theme), ``night`` the dark one.
Felt = Literal["green", "blue", "night", "paper"]
FELTS: Final = ("green", "blue", "night", "paper")
#: Every back comes in two colours, one per deck (R1: the two decks stay told apart).
Back = Literal["lattice", "stripes", "rosette"]
BACKS: Final = ("lattice", "stripes", "rosette")
#: ``mirrored``: the stock and the waste on the other side (for the left hand).
Layout = Literal["standard", "mirrored"]
LAYOUTS: Final = ("standard", "mirrored")
#: Card sounds' volume, per cent.
VOLUMES: Final = range(0, 101)
DEFAULT_VOLUME: Final = 60
#: The settings that take one of a few words, and those words (checked alike).
CHOICES: Final[dict[str, tuple[str, ...]]] = {"verbosity": VERBOSITIES, "felt": FELTS, "back": BACKS,
                                              "layout": LAYOUTS}
#: The settings that are true or false.
FLAGS: Final = ("show_chance", "four_colour", "large_index", "sound", "wish", "show_playable", "tour_seen")


@dataclass(frozen=True)
class Settings:
    """``lang``: the interface language (``None``: follow the browser or terminal);
    ``speed``: pace of play 0…3; ``variant``: the rules for new games (V1–V3);
    ``show_chance``: show the live chance-to-come-out figure; ``verbosity``: how much is
    said to a screen reader (``VERBOSITIES``).

    Looks and sound (issue 28; the page applies them, the terminal honours ``felt``'s
    light or dark and ``four_colour``): ``felt`` the table's cloth (``FELTS``); ``back``
    the cards' backs (``BACKS``); ``four_colour`` diamonds blue and clubs green;
    ``large_index`` faces with a large rank and suit (small screens, low vision);
    ``layout`` ``mirrored`` puts the stock on the other side; ``sound`` card sounds on
    (off by default: a page does not speak up unasked) and their ``volume`` 0…100.

    Guidance (issue 26): ``show_playable`` marks the cards that can be played now on the
    table (the legal moves, ``play.view.TableView.playable``); ``tour_seen``: the
    first-visit tour of the table has been shown (or skipped), so it opens again only
    when asked for (the page's Help)."""

    lang: Lang | None = None
    speed: int = DEFAULT_SPEED
    variant: Variant = field(default=CANONICAL)
    show_chance: bool = True
    verbosity: Verbosity = "full"
    felt: Felt = "green"
    back: Back = "lattice"
    four_colour: bool = False
    large_index: bool = False
    layout: Layout = "standard"
    sound: bool = False
    volume: int = DEFAULT_VOLUME
    #: "On a wish" (issue 28): ask for a wish before each new deal, and say at the end
    #: whether it comes true (docs/play.md). Off by default.
    wish: bool = False
    show_playable: bool = True
    tour_seen: bool = False

    FIELDS: ClassVar[tuple[str, ...]] = ("lang", "speed", "variant", "show_chance", "verbosity",
                                         "felt", "back", "four_colour", "large_index", "layout", "sound", "volume",
                                         "wish", "show_playable", "tour_seen")

    def to_json(self) -> dict[str, object]:
        return {key: self.variant.token if key == "variant" else getattr(self, key) for key in self.FIELDS}

    @classmethod
    def from_stored(cls, data: Mapping[str, object]) -> Settings:
        """Read stored settings; a value that does not check takes its default."""
        s = cls()
        for key in cls.FIELDS:
            if key in data:
                with contextlib.suppress(PlayError):
                    s = s.updated({key: data[key]})
        return s

    def updated(self, changes: Mapping[str, object]) -> Settings:
        """These settings with ``changes`` applied (``null`` restores a default);
        ``PlayError`` (``settings.unknown``/``settings.value``) on any bad entry."""
        s = self
        for key, value in changes.items():
            if key not in self.FIELDS:
                raise PlayError("settings.unknown", key=str(key)[:40], expected=", ".join(self.FIELDS))
            if value is None:
                s = replace(s, **{key: getattr(Settings(), key)})
            elif key == "lang":
                if value not in LANGS:
                    raise PlayError("settings.value", key=key, reason='must be "ru" or "en"')
                s = replace(s, lang=value)
            elif key == "speed":
                if isinstance(value, bool) or not isinstance(value, int) or value not in SPEEDS:
                    raise PlayError("settings.value", key=key, reason="must be a whole number 0…3")
                s = replace(s, speed=value)
            elif key == "variant":
                s = replace(s, variant=parse_variant(value))
            elif key in FLAGS:
                if not isinstance(value, bool):
                    raise PlayError("settings.value", key=key, reason="must be true or false")
                s = _with(s, key, value)
            elif key in CHOICES:
                if value not in CHOICES[key]:
                    words = ", ".join(f'"{w}"' for w in CHOICES[key])
                    raise PlayError("settings.value", key=key, reason=f"must be one of {words}")
                s = _with(s, key, value)
            elif key == "volume":
                if isinstance(value, bool) or not isinstance(value, int) or value not in VOLUMES:
                    raise PlayError("settings.value", key=key, reason="must be a whole number 0…100")
                s = replace(s, volume=value)
        return s


def _with(s: Settings, key: str, value: Any) -> Settings:
    """``s`` with ``key`` set to ``value`` (checked by the caller)."""
    return replace(s, **{key: value})


def parse_variant(value: object) -> Variant:
    """A variant from its token (``"r3"``, ``"ruw"``, ``"r0n"``…) or from an object
    ``{redeals, waste_playable, privileged_last}`` (missing fields canonical; ``token``
    and ``description`` tolerated, so a game's variant can be sent back as it came).
    Redeals are capped at ``MAX_REDEALS`` (beyond that, choose unlimited)."""
    if isinstance(value, str):
        text = value.strip()
        if len(text) > 12:
            raise PlayError("variant.invalid", text=value[:40])
        try:
            v = Variant.from_token(text)
        except ValueError:
            raise PlayError("variant.invalid", text=value[:40]) from None
    elif isinstance(value, Mapping):
        allowed = ("redeals", "waste_playable", "privileged_last", "token", "description")
        for key in value:
            if key not in allowed:
                raise PlayError("variant.field", field=str(key)[:40],
                                reason=f"is not a variant field (expected {', '.join(allowed[:3])})")
        redeals = value.get("redeals", CANONICAL.redeals)
        if redeals is not None and (isinstance(redeals, bool) or not isinstance(redeals, int) or redeals < 0):
            raise PlayError("variant.redeals", max=MAX_REDEALS)
        flags: dict[str, bool] = {}
        for name in ("waste_playable", "privileged_last"):
            flag = value.get(name, getattr(CANONICAL, name))
            if not isinstance(flag, bool):
                raise PlayError("variant.field", field=name, reason="must be true or false")
            flags[name] = flag
        v = Variant(redeals=redeals, **flags)
    else:
        raise PlayError("variant.invalid", text=str(value)[:40])
    if v.redeals is not None and v.redeals > MAX_REDEALS:
        raise PlayError("variant.redeals", max=MAX_REDEALS)
    return v


def parse_redeals(text: str) -> int | None:
    """Redeals (V1) as typed, read by the engine's one reader (``engine.parse_redeals``:
    its words for unlimited, its cap ``MAX_REDEALS``), refused as the play layer refuses
    (``variant.redeals``)."""
    try:
        return read_redeals(text)
    except ValueError:
        raise PlayError("variant.redeals", max=MAX_REDEALS) from None
