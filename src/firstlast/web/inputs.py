"""Requests in: a body read within its limit and decoded into its declared model
(``models``), a query string decoded into its model.

A value the model refuses is explained by the play layer's own parser when there is
one (``parse_deal``, ``parse_variant``, the settings schema, the engine's move
notation), so the page gets the code it knows (``deal.range``, ``variant.redeals``,
``settings.unknown``…); otherwise by msgspec's sentence, as ``request.value``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from functools import cache
from typing import Any, Final, NoReturn, TypeVar

import msgspec
from starlette.requests import ClientDisconnect, Request

from ..engine import Move
from ..engine.errors import FirstLastError
from ..play import PlayError, Settings, parse_deal, parse_variant
from .errors import WebError
from .models import ImportRequest, MoveRequest, NewGame, SettingsChange

B = TypeVar("B", bound=msgspec.Struct)
MAX_BODY: Final = 64 * 1024
MAX_RECORD: Final = 2 * 1024 * 1024  # an import's JSON body: a record of 1 Mi characters, escaped


async def read_body(request: Request, limit: int) -> bytes:
    """The body, refused with 413 past ``limit`` bytes (checked while streaming, so a
    lying or missing Content-Length cannot make the server buffer more)."""
    length = request.headers.get("content-length")
    if length is not None and length.isdigit() and int(length) > limit:
        raise WebError("request.too_large", limit=limit // 1024)
    chunks: list[bytes] = []
    size = 0
    try:
        async for chunk in request.stream():
            size += len(chunk)
            if size > limit:
                raise WebError("request.too_large", limit=limit // 1024)
            chunks.append(chunk)
    except ClientDisconnect:
        # The player's browser went away mid-body: nothing is done, nobody to answer, and
        # no traceback in the log (it is not the server's fault).
        raise WebError("request.gone") from None
    return b"".join(chunks)


@cache
def _decoder(model: type[B]) -> msgspec.json.Decoder[B]:
    return msgspec.json.Decoder(model)


async def decode(request: Request, model: type[B], limit: int = MAX_BODY) -> B:
    """The body as a ``model``; an empty body reads as ``{}``."""
    body = (await read_body(request, limit)).strip()
    if not body:
        body = b"{}"
    elif body[:1] != b"{":
        _raw(body)  # not JSON at all: 400 request.json
        raise WebError("request.object")
    try:
        decoded: B = _decoder(model).decode(body)
        return decoded
    except (msgspec.ValidationError, msgspec.DecodeError) as exc:
        _explain(model, _raw(body), exc)


def _huge_int(text: str) -> int:
    """An integer of the body as the standard library's JSON reader meets it: past 20
    digits (beyond every field's range, and towards the interpreter's 4,300-digit limit)
    it stands for itself by a number just as out of range."""
    if len(text.lstrip("-")) <= 20:
        return int(text)
    return -(2**64) if text.startswith("-") else 2**64


def _raw(body: bytes) -> Any:
    try:
        return msgspec.json.decode(body)
    except RecursionError:  # "[[[[…" nested past the limit
        raise WebError("request.json") from None
    except (msgspec.DecodeError, msgspec.ValidationError):
        # msgspec holds integers up to 64 bits: a longer one (a 5,000-digit deal) is valid
        # JSON all the same, refused as out of range by the field's own check.
        try:
            return json.loads(body, parse_int=_huge_int)
        except (ValueError, RecursionError):
            raise WebError("request.json") from None


def _refuse_move(name: str, value: object) -> None:
    if not isinstance(value, str):
        raise PlayError("move.invalid", reason='a move is "turn", "redeal", "R1"…"R8", "F1"…"F8" or "waste"')
    try:
        Move.parse(value)
    except FirstLastError as e:
        raise PlayError("move.invalid", reason=str(e)) from None
    # A good move: the refusal is another field's (a bad version), worded below.


def _refuse_deal(name: str, value: object) -> None:
    if value is not None:
        parse_deal(value)


def _refuse_variant(name: str, value: object) -> None:
    if value is not None:
        parse_variant(value)


def _refuse_record(name: str, value: object) -> None:
    raise PlayError("record.invalid", reason="record must be the record's text, as a string", line=None)


def _refuse_setting(name: str, value: object) -> None:
    Settings().updated({name: value})


#: The play layer's parser for a model's field: called on a value the model refused, it
#: raises the play layer's refusal (when it accepts the value, msgspec's sentence stands).
_REFUSERS: Final[Mapping[type[msgspec.Struct], Mapping[str, Callable[[str, object], None]]]] = {
    NewGame: {"deal": _refuse_deal, "variant": _refuse_variant},
    MoveRequest: {"move": _refuse_move},
    ImportRequest: {"record": _refuse_record},
    SettingsChange: {name: _refuse_setting for name in SettingsChange.__struct_fields__},
}


def _explain(model: type[msgspec.Struct], raw: Any, exc: msgspec.ValidationError | msgspec.DecodeError) -> NoReturn:
    """Raise the refusal of a body ``model`` refused with ``exc``: the play layer's, for
    the first field its parser refuses, else ``request.field``/``request.value``."""
    if isinstance(raw, dict):
        refusers = _REFUSERS.get(model, {})
        names = model.__struct_encode_fields__
        for key in raw:
            if key not in names:
                if model is SettingsChange:
                    _refuse_setting(str(key), None)  # settings.unknown, named by the play layer
                raise WebError("request.field", field=str(key)[:40], where=model.__name__,
                               expected=", ".join(names) or "no fields")
        for name, refuse in refusers.items():
            if name in raw:
                refuse(name, raw[name])
    message, _, where = str(exc).partition(" - at `$.")
    raise WebError("request.value", field=where.rstrip("`") or "body", reason=message[:200])


#: The int fields of each query model: their values are read as ASCII digits only
#: (msgspec's own text-to-int would take "1e3" and "5.0").
_DIGITS: Final = frozenset("0123456789")


@cache
def _int_fields(model: type[msgspec.Struct]) -> frozenset[str]:
    info = msgspec.inspect.type_info(model)
    assert isinstance(info, msgspec.inspect.StructType)
    def is_int(t: msgspec.inspect.Type) -> bool:
        return isinstance(t, msgspec.inspect.IntType) or (isinstance(t, msgspec.inspect.Metadata) and is_int(t.type))

    return frozenset(f.encode_name for f in info.fields if is_int(f.type))


def query(request: Request, model: type[B]) -> B:
    """The query string as a ``model`` (unknown parameters are ignored: a browser or a
    proxy may add its own)."""
    ints = _int_fields(model)
    values: dict[str, object] = {}
    for key, value in request.query_params.items():
        if key in ints and 0 < len(value) <= 18 and _DIGITS.issuperset(value):
            values[key] = int(value)
        else:
            values[key] = value
    try:
        return msgspec.convert(values, model)
    except msgspec.ValidationError as exc:
        message, _, where = str(exc).partition(" - at `$.")
        raise WebError("request.value", field=where.rstrip("`") or "query", reason=message[:200]) from None


