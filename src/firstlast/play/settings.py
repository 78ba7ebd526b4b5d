"""A player's settings: one schema, read and written by every face (docs/play.md,
"Settings"): read leniently as stored (``Settings.from_stored``), a change checked
strictly (``Settings.updated``).
"""

from __future__ import annotations

from collections.abc import Mapping
from contextlib import suppress
from dataclasses import dataclass
from typing import Annotated, Final, Literal, get_args, get_origin

import msgspec
from msgspec import Meta

from ..engine import CANONICAL, MAX_REDEALS, Variant
from ..engine import parse_redeals as read_redeals
from ..i18n.table import Verbosity
from .errors import PlayError
from .fields import Lang, VariantToken, worded


@dataclass(frozen=True)
class Pace:
    """One pace of play (the ``speed`` setting), the same for every face: ``name`` (its
    words are the catalogs' ``speed_<n>``), Auto's rate in moves per second (``None``:
    as fast as the face can, no animation) and one card's flight on the page, ms (0:
    cards move at once)."""

    name: str
    moves_per_s: float | None
    flight_ms: int


#: Pace of play, by the ``speed`` setting; the page (vocabulary.js) and the terminal read it here.
PACES: Final = (Pace("instant", None, 0), Pace("slow", 2.0, 480), Pace("normal", 8.0, 300),
                Pace("fast", 32.0, 220))
#: How long Finish's cascade of the rest of a game may take on the page, at most (ms);
#: the moves are spaced so that a whole game fits (issue 26).
FINISH_MS: Final = 4000
#: Looks (issue 28): the table's cloth, the cards' backs, the layout, each drawn by the
#: project (web/static/css/table.css, web/static/js/cards.js).
Felt = Literal["green", "blue", "night", "paper"]
#: Every back comes in two colours, one per deck (R1: the two decks stay told apart).
Back = Literal["lattice", "stripes", "rosette"]
Layout = Literal["standard", "mirrored"]


class Settings(msgspec.Struct, frozen=True, kw_only=True):
    """A player's settings, defaults for a key never set (docs/play.md's table says what
    each does; ``lang`` ``None``: follow the browser or terminal; ``sound`` is off by
    default: a page does not speak up unasked). Declared once, with its bounds:
    docs/meanings.md says what derives from it."""

    lang: Lang | None = None
    speed: Annotated[int, Meta(ge=0, le=len(PACES) - 1, description="0 instant, 1 slow, 2 normal, 3 fast")] = 2
    variant: Variant = CANONICAL
    show_chance: bool = True
    verbosity: Verbosity = "full"
    felt: Felt = "green"
    back: Back = "lattice"
    four_colour: bool = False
    large_index: bool = False
    layout: Layout = "standard"
    sound: bool = False
    volume: Annotated[int, Meta(ge=0, le=100, description="card sounds' volume, per cent")] = 60
    wish: Annotated[bool, Meta(description="on a wish: ask for a wish before each new deal")] = False
    show_playable: Annotated[bool, Meta(description="mark the cards that can be played now")] = True
    tour_seen: Annotated[bool, Meta(description="the first-visit tour has been shown")] = False

    def to_json(self) -> dict[str, object]:
        return {**msgspec.structs.asdict(self), "variant": self.variant.token}

    @classmethod
    def from_stored(cls, data: Mapping[str, object]) -> Settings:
        """Read stored settings; a value that does not check (or a key this version
        does not know) takes its default."""
        settings = cls()
        for key, value in data.items():
            with suppress(PlayError):
                settings = settings.updated({key: value})
        return settings

    def updated(self, changes: Mapping[str, object]) -> Settings:
        """These settings with ``changes`` applied (``null`` restores a default);
        ``PlayError`` (``settings.unknown``/``settings.value``) on any bad entry, its
        reason worded from the field's declared bounds (``fields.worded``)."""
        values: dict[str, object] = {}
        for key, value in changes.items():
            if key not in FIELD_TYPES:
                raise PlayError("settings.unknown", key=str(key)[:40], expected=", ".join(FIELD_TYPES))
            if value is None:
                value = getattr(DEFAULTS, key)
            elif key == "variant":
                value = parse_variant(value)
            else:
                try:  # strict: true and 1.0 are not 1
                    msgspec.convert(value, FIELD_TYPES[key], strict=True)
                except (msgspec.ValidationError, UnicodeError):
                    raise PlayError("settings.value", key=key, reason=worded(FIELD_TYPES[key])) from None
            values[key] = value
        return msgspec.structs.replace(self, **values)


#: Each setting's declared type, by name, in order.
FIELD_TYPES: Final = {f.name: f.type for f in msgspec.structs.fields(Settings)}
DEFAULTS: Final = Settings()
#: The settings as JSON carries them (the web's answer, a backup's settings:
#: ``Settings.to_json``): the same fields and bounds, the variant as its token.
SettingsJSON: Final = msgspec.defstruct(
    "Settings", [(name, VariantToken if t is Variant else t) for name, t in FIELD_TYPES.items()], kw_only=True,
    namespace={"__doc__": Settings.__doc__})
#: The settings that take one of a few words, and those words (checked alike).
CHOICES: Final[dict[str, tuple[str, ...]]] = {k: get_args(t) for k, t in FIELD_TYPES.items()
                                              if get_origin(t) is Literal}


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
