"""Requests in: a body read within its limit and decoded into its declared model
(``models``), a query string into its model; numbers read as the schema reads them, and
a refused value explained by the play layer's own parser where there is one, so the page
gets the code it knows, else by msgspec's sentence (docs/web-api.md, "Details")."""

from __future__ import annotations

import asyncio
import datetime as dt
import math
import re
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from decimal import Decimal, InvalidOperation
from functools import cache
from typing import Any, Final, NoReturn, TypeVar

import msgspec
from starlette.requests import Request

from ..play import MakeMove, PlayError, Settings, jsontext, parse_deal, parse_variant
from ..play.backup import MAX_BACKUP_CHARS
from ..play.fields import refused
from .errors import WebError
from .models import ImportRequest, MoveRequest, NewGame, SettingsChange

B = TypeVar("B", bound=msgspec.Struct)
MAX_BODY: Final = 64 * 1024
MAX_RECORD: Final = 2 * 1024 * 1024  # an import's JSON body: a record of 1 Mi characters, escaped
MAX_RESTORE_BODY: Final = 2 * MAX_BACKUP_CHARS + 64 * 1024  # a backup's text as a JSON string, escaped


async def read_body(request: Request, limit: int) -> bytearray:
    """The body, refused with 413 past ``limit`` bytes counted as it streams
    (docs/web-api.md, "Endpoints"), and given up, ``request.gone``, once the server
    begins to stop (docs/play.md, "Stopping")."""
    length = request.headers.get("content-length", "")
    declared = int(length) if length.isdigit() else 0
    if declared > limit + DRAIN:
        raise WebError("request.too_large", limit=limit // 1024)
    play = request.app.state.web.play
    # One buffer that grows (not a list of chunks joined at the end: twice the body).
    body = bytearray()
    size = 0
    more = True
    while more:
        waiting = asyncio.ensure_future(request.receive())
        while not (await asyncio.wait({waiting}, timeout=STOP_LOOK))[0]:
            if play.stopping:
                waiting.cancel()
                raise WebError("request.gone")
        message = waiting.result()
        if message["type"] != "http.request":
            # The player's browser went away mid-body: nothing is done, nobody to answer,
            # and no traceback in the log (it is not the server's fault).
            raise WebError("request.gone")
        chunk = message.get("body", b"")
        size += len(chunk)
        more = bool(message.get("more_body", False))
        if max(size, declared) <= limit:
            body += chunk
        elif size > limit + DRAIN:
            break  # more than will be read through: answered now, the connection closed
        else:
            del body[:]  # never held past the limit
    if max(size, declared) > limit:
        raise WebError("request.too_large", limit=limit // 1024)
    return body


#: Bytes past a body's limit read and dropped so that its client reads the refusal.
DRAIN: Final = 64 * 1024 * 1024
#: Seconds between looks, while a body is on its way, at whether the server is stopping.
STOP_LOOK: Final = 0.25


@cache
def _decoder(model: type[B]) -> msgspec.json.Decoder[B]:
    return msgspec.json.Decoder(model)


async def decode(request: Request, model: type[B], limit: int = MAX_BODY) -> B:
    """The body as a ``model``; no body at all reads as ``{}`` (whitespace alone is no
    JSON: 400)."""
    body = await read_body(request, limit) or b"{}"
    try:
        decoded: B = _decoder(model).decode(body)
        return decoded
    except msgspec.ValidationError:  # (a DecodeError too: first)
        not_json = None
    except msgspec.DecodeError as exc:
        not_json = exc  # not JSON as msgspec reads it (a lone surrogate, NaN, UTF-16): explained, never accepted
    # Refused as typed: read again with whole floats as integers (msgspec takes only
    # ``2`` for an int), then either accepted so or explained. Only refusals pay for this.
    raw = _raw(body)
    if not isinstance(raw, dict):
        raise WebError("request.object")
    if not_json is not None:
        _explain(model, raw, not_json)
    try:
        return msgspec.convert(raw, model)
    except (msgspec.ValidationError, UnicodeError) as exc:
        _explain(model, raw, exc)


#: A number beyond every field's range (2^64 − 1, the largest, has 20 digits).
_OUT_OF_RANGE: Final = 2**64


def _number(text: str) -> int | float:
    """A number's text (JSON's, or a query's digits) as JSON Schema reads it: an ``int``
    when it is whole (``2.0``, ``1e3``), read exactly (``1e19`` is not rounded through a
    float), and past 20 digits as out of range as the number it stands for (without
    making a 5,000-digit ``int``); else a ``float``."""
    try:
        exact = Decimal(text)
    except InvalidOperation:  # an exponent past Decimal's own limits
        f = float(text)
        return int(math.copysign(_OUT_OF_RANGE, f)) if math.isinf(f) else f
    if exact and exact.adjusted() >= 20:
        return int(math.copysign(_OUT_OF_RANGE, exact))
    return int(exact) if exact == exact.to_integral_value() else float(exact)


def _not_json(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")  # NaN, Infinity: Python's reader takes them


def _raw(body: bytes | bytearray) -> Any:
    """The body as plain JSON values, numbers read by ``_number`` (so an integer longer
    than msgspec holds, a 5,000-digit deal, is refused by its field's own range); 400
    ``request.json`` when it is not JSON."""
    try:
        return jsontext.loads(body, parse_int=_number, parse_float=_number, parse_constant=_not_json)
    except (ValueError, RecursionError):  # a lone surrogate too (``jsontext``): no text; "[[[[…" too deep
        raise WebError("request.json") from None


def _unless_none(parse: Callable[[object], object]) -> Callable[[object], object]:
    return lambda value: value is None or parse(value)


def _refuse_record(value: object) -> None:
    raise PlayError("record.invalid", reason="record must be the record's text, as a string", line=None)


def _a_date(value: object) -> object:
    try:
        return msgspec.convert(value, dt.date)
    except msgspec.ValidationError:  # msgspec would say "Invalid RFC3339 encoded date"
        raise WebError("request.value", field="date", reason="must be a date, YYYY-MM-DD") from None


#: The play layer's parser for a model's field: called on a value the model refused, it
#: raises the play layer's refusal (when it accepts the value, msgspec's sentence stands:
#: a good move refused means another field's refusal, a bad version).
_REFUSERS: Final[Mapping[type[msgspec.Struct], Mapping[str, Callable[[object], object]]]] = {
    NewGame: {"deal": _unless_none(parse_deal), "variant": _unless_none(parse_variant), "date": _unless_none(_a_date)},
    MoveRequest: {"move": MakeMove.parse},
    ImportRequest: {"record": _refuse_record},
}


@contextmanager
def about(field: str) -> Iterator[None]:
    """A play-layer refusal raised inside names ``field``, the request's field it is
    about (``params.field``), unless it names one already (``variant.field`` names the
    variant's own)."""
    try:
        yield
    except PlayError as e:
        e.params.setdefault("field", field)
        raise


def value_error(exc: Exception, model: type[msgspec.Struct], raw: object, whole: str) -> WebError:
    """``request.value`` for msgspec's refusal ``exc`` of ``raw`` as a ``model``:
    ``params.field`` the field it is about (``variant.redeals``; ``play.fields.refused``),
    else ``whole`` (the body or the query as a whole)."""
    found = refused(model, raw)
    field, reason = found if found is not None else (whole, str(exc))
    return WebError("request.value", field=field[:80], reason=reason[:200])


def _explain(model: type[msgspec.Struct], raw: dict[str, Any], exc: Exception) -> NoReturn:
    """Raise the refusal of a body ``model`` refused with ``exc``: the play layer's, for
    the first field its parser refuses, else ``request.field``/``request.value``; each
    names its field."""
    if model is SettingsChange:  # the play layer names an unknown key or a bad value
        for key, value in raw.items():
            with about(key[:40]):
                Settings().updated({key: value})
    names = model.__struct_encode_fields__
    for key in raw:
        if key not in names:
            raise WebError("request.field", field=key[:40], where=model.__name__,
                           expected=", ".join(names) or "no fields")
    for name, refuse in _REFUSERS.get(model, {}).items():
        if name in raw:
            with about(name):
                refuse(raw[name])
    raise value_error(exc, model, raw, "body")


#: A query's number: ASCII digits (leading zeros too), or a number as JSON writes one.
_NUMBER: Final = re.compile(r"-?[0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")


@cache
def _int_fields(model: type[msgspec.Struct]) -> frozenset[str]:
    """The query's parameters its schema says are integers (an optional one too)."""
    fields = msgspec.json.schema(model)["$defs"][model.__name__]["properties"].items()
    return frozenset(name for name, f in fields if any(t.get("type") == "integer" for t in [f, *f.get("anyOf", [])]))


def query(request: Request, model: type[B]) -> B:
    """The query string as a ``model`` (unknown parameters are ignored: a browser or a
    proxy may add its own)."""
    ints = _int_fields(model)
    # An int field's text as the number it spells, as in a body (``_number``); anything
    # else stays text, refused as such (msgspec's own text-to-int would take "٣" and " 5").
    values = {key: _number(value) if key in ints and _NUMBER.fullmatch(value) else value
              for key, value in request.query_params.items()}
    try:
        return msgspec.convert(values, model)
    except msgspec.ValidationError as exc:
        raise value_error(exc, model, values, "query") from None
