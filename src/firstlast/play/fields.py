"""The bounded field types the play layer's records share, declared once with their
bounds (msgspec ``Meta``), which the web's models, schema and the page's typedefs read
too; ``worded`` says a field's bounds as a refusal's reason ("must be a whole number 0…104").
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Annotated, Final, Literal, get_args

import msgspec
from msgspec import Meta
from msgspec import inspect as mi

from ..engine import MAX_DEAL, MAX_REDEALS, PLACE_NAMES
from ..engine.variant import token_pattern
from ..store.records import ID_PATTERN as ID_PATTERN
from ..store.records import Origin as Origin  # a game played here or read from a backup: the store's column
from ..store.records import Result as Result


def digits_upto(n: int) -> str:
    """A regular expression for the texts of ASCII digits, leading zeros allowed, of at
    most as many digits as ``n`` and worth at most ``n``: so that a pattern says the range
    (``"99999999999999999999"`` has the 20 digits of 2^64 − 1, but is past it)."""
    top = str(n)
    alternatives = [f"[0-9]{{1,{len(top) - 1}}}"] if len(top) > 1 else []
    for i, digit in enumerate(top):  # as long as n: its first i digits, then a smaller one
        if digit != "0":
            below = "0" if digit == "1" else f"[0-{int(digit) - 1}]"
            rest = len(top) - i - 1
            alternatives.append(top[:i] + below + (f"[0-9]{{{rest}}}" if rest else ""))
    alternatives.append(top)
    return "(?:" + "|".join(alternatives) + ")"


#: Deal numbers as text: JSON numbers lose digits past 2^53 in a browser. At most 20
#: digits (2^64 − 1 has 20); the range is ``parse_deal``'s, which the pattern says too.
DealText = Annotated[str, Meta(pattern=f"^{digits_upto(MAX_DEAL)}$", description="ASCII digits, 0…2^64−1")]
#: msgspec takes no bound past 64 bits (signed): the maximum is the schema's, and
#: ``parse_deal``'s to check.
DealNumber = Annotated[int, Meta(ge=0, description="0…2^64−1 (send large numbers as text)",
                                 extra_json_schema={"maximum": MAX_DEAL})]
VariantToken = Annotated[str, Meta(pattern=f"^{token_pattern(digits_upto(MAX_REDEALS))}$",
                                   description=f"e.g. r3, ru, r0w, r3wn; redeals 0…{MAX_REDEALS}")]
#: A place's one name (``places.PLACE_NAMES``).
PlaceName = Annotated[str, Meta(pattern="^(" + "|".join(PLACE_NAMES) + ")$")]
#: A calendar date, YYYY-MM-DD (the deal of the day: play.daily).
IsoDate = Annotated[str, Meta(pattern="^[0-9]{4}-[0-9]{2}-[0-9]{2}$", description="YYYY-MM-DD")]
#: The longest wish kept with a game (characters); "on a wish" (docs/play.md).
MAX_WISH: Final = 200
#: The largest whole number a browser reads exactly (2^53 − 1).
MAX_SAFE: Final = 2**53 - 1
Probability = Annotated[float, Meta(ge=0, le=1)]
KeptResult = Annotated[Result | None, Meta(description="the first end reached, kept after undo")]
Lang = Literal["ru", "en"]


def worded(t: object) -> str:
    """A field's declared type and bounds in words, as a refusal's reason says them:
    ``"must be a whole number 0…104"``, ``'must be "won", "lost" or null'``."""
    info = mi.type_info(t)
    words = [w for p in (info.types if isinstance(info, mi.UnionType) else (info,)) for w in _words(p)]
    return "must be " + (", ".join(words[:-1]) + " or " + words[-1] if len(words) > 1 else words[0])


def _words(t: mi.Type) -> list[str]:
    if isinstance(t, mi.Metadata):
        described = (t.extra_json_schema or {}).get("description")
        pattern = isinstance(t.type, mi.StrType) and t.type.pattern
        return [str(described)] if described and pattern else _words(t.type)
    if isinstance(t, mi.IntType):
        if t.ge is not None and t.le is not None:
            return [f"a whole number {t.ge}…{t.le}"]
        return ["a whole number" + (f" ≥ {t.ge}" if t.ge is not None else "")]
    if isinstance(t, mi.StrType):
        return ["a string" + (f" of at most {t.max_length:,} characters" if t.max_length is not None else "")]
    if isinstance(t, mi.LiteralType):
        return [json.dumps(v) for v in t.values]
    words = {mi.NoneType: "null", mi.BoolType: "true or false", mi.ListType: "a list"}
    return [words.get(type(t), "a JSON object")]


def refused(model: type[msgspec.Struct], raw: object, where: str = "", *,
            word: bool = False) -> tuple[str, str] | None:
    """The first field of ``raw`` that ``model`` refuses, by its path (``variant.redeals``),
    with the reason for that value alone (msgspec's, or with ``word`` ``worded``'s), found
    field by field, never read out of msgspec's sentence. ``None`` if every field is
    accepted on its own (or ``raw`` is no object). Unknown fields are the caller's to name."""
    if not isinstance(raw, dict):
        return None
    for f in msgspec.structs.fields(model):
        path = f"{where}.{f.encode_name}" if where else f.encode_name
        if f.encode_name not in raw:
            if f.required:
                return path, "a required field is missing"
            continue
        value = raw[f.encode_name]
        try:
            msgspec.convert(value, f.type)
        except (msgspec.ValidationError, UnicodeError) as e:
            for struct in _structs(f.type):
                if (inner := refused(struct, value, path, word=word)) is not None:
                    return inner
            return path, worded(f.type) if word else str(e)
    return None


def _structs(t: object) -> Iterator[type[msgspec.Struct]]:
    """The Struct types a field's type may hold (through ``Optional``, unions, ``Annotated``)."""
    if isinstance(t, type) and issubclass(t, msgspec.Struct):
        yield t
    for arg in get_args(t):
        yield from _structs(arg)
