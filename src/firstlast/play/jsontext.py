"""JSON from outside (a request's body, a backup file), read once for every reader.

JSON's grammar lets a string spell half of a UTF-16 pair alone (``"\\ud800"``): Python's
reader makes of it a ``str`` that no UTF-8 writer can write, so a refusal that quoted
it, a log line or a stored row would fail on the way out. ``loads`` refuses such text
where it is read (``ValueError``, as for any text that is not JSON), so that nothing
behind the readers ever holds it.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any


class UnencodableText(ValueError):
    """JSON whose strings hold a lone surrogate: no text can be written from it."""


def loads(text: str | bytes | bytearray, *, parse_int: Callable[[str], Any] | None = None,
          parse_float: Callable[[str], Any] | None = None,
          parse_constant: Callable[[str], Any] | None = None) -> Any:
    """``json.loads`` with these hooks, refusing (``UnencodableText``) a text with a lone
    surrogate in a string or a key: what UTF-8 cannot encode."""
    value = json.loads(text, parse_int=parse_int, parse_float=parse_float, parse_constant=parse_constant)
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        raise UnencodableText("a string holds a lone surrogate (\\ud800-\\udfff), which is no text") from None
    return value
