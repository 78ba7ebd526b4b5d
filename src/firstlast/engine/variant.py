"""Rule variants V1–V3 (docs/rules.md §3), declared once with typed defaults.

``Variant()`` is the canonical game. Variants are immutable and hashable, so they can
key statistics and caches.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from .cards import clip, is_number, parse_whole

CANONICAL_REDEALS: Final = 3
#: The most redeals (V1) a game that is stored or recorded may have; beyond it, choose
#: unlimited. New games (``play.settings``), records (``engine.record``) and backups
#: all stop here: past it the odds estimate cannot follow, and a record or backup of
#: such a game could not be read back.
MAX_REDEALS: Final = 1000
_TOKEN = re.compile(r"r([0-9]+|u)(w?)(n?)")


@dataclass(frozen=True, slots=True)
class Variant:
    """``redeals``: V1, the number of redeals (``None`` = unlimited);
    ``waste_playable``: V2, the waste's top card is a source;
    ``privileged_last``: V3, the card at F8 is privileged (R8)."""

    redeals: int | None = CANONICAL_REDEALS
    waste_playable: bool = False
    privileged_last: bool = True

    def __post_init__(self) -> None:
        if self.redeals is not None and (
            isinstance(self.redeals, bool) or not isinstance(self.redeals, int) or self.redeals < 0
        ):
            raise ValueError(f"redeals must be a whole number ≥ 0 or None (unlimited), not {self.redeals!r}")

    def redeals_left(self, used: int) -> int | None:
        """Redeals still allowed after ``used`` (None when unlimited)."""
        return None if self.redeals is None else max(0, self.redeals - used)

    @property
    def token(self) -> str:
        """Compact form used in position notation: ``r3``, ``ru``, ``r0w``, ``r3wn``."""
        return (
            "r" + ("u" if self.redeals is None else str(self.redeals))
            + ("w" if self.waste_playable else "")
            + ("n" if not self.privileged_last else "")
        )

    @classmethod
    def from_token(cls, token: str) -> Variant:
        """Read ``r3``, ``ru``, ``r0w``, ``r3wn``; ``ValueError`` (one line) otherwise,
        including a redeal count too long to be a number (``parse_whole``)."""
        m = _TOKEN.fullmatch(token)
        if m is None:
            raise ValueError(f"not a variant: {clip(token)!r} (expected r<redeals>|ru, then optional w, n)")
        try:
            redeals = None if m.group(1) == "u" else parse_whole(m.group(1))
        except ValueError as e:
            raise ValueError(f"variant {clip(token)!r}: redeals: {e}") from None
        return cls(
            redeals=redeals,
            waste_playable=bool(m.group(2)),
            privileged_last=not m.group(3),
        )

    def describe(self) -> str:
        """Human description, e.g. ``3 redeals, privileged last card``."""
        parts = [
            "unlimited redeals" if self.redeals is None
            else f"{self.redeals} redeal" + ("" if self.redeals == 1 else "s")
        ]
        if self.waste_playable:
            parts.append("waste playable")
        parts.append("privileged last card" if self.privileged_last else "no privileged card")
        return ", ".join(parts)


CANONICAL: Final = Variant()


def parse_redeals(text: str) -> int | None:
    """Parse a ``--redeals`` value: a whole number ≥ 0 or ``unlimited``."""
    if text.strip().lower() in ("unlimited", "u", "inf", "∞"):
        return None
    digits = text.strip()
    if digits.startswith("-") and is_number(digits[1:]):
        raise ValueError(f"redeals must be ≥ 0, not {clip(digits)}")
    if not is_number(digits):  # ASCII digits only: int() would also take '５' or '1_0'
        raise ValueError(f"redeals must be a whole number ≥ 0 or 'unlimited', not {clip(text)!r}")
    return parse_whole(digits)  # bounded before int(): no 5,000-digit ValueError from Python
