"""Rule variants V1–V3 (docs/rules.md §3), declared once with typed defaults.

``Variant()`` is the canonical game. Variants are immutable and hashable, so they can
key statistics and caches.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from .cards import clip, parse_whole

CANONICAL_REDEALS: Final = 3
#: The most redeals (V1) a game that is stored or recorded may have; beyond it, choose
#: unlimited. Past it the odds estimate cannot follow, and a record or backup of such a
#: game could not be read back.
MAX_REDEALS: Final = 1000
#: The letters of a variant token (docs/notation.md): the prefix, unlimited redeals (V1),
#: the waste playable (V2), no privileged card (V3). ``r3``, ``ru``, ``r0w``, ``r3wn``.
TOKEN_LETTERS: Final = {"prefix": "r", "unlimited": "u", "waste_playable": "w", "no_privileged": "n"}
#: What a player may type for unlimited redeals (``parse_redeals``), any letter case.
UNLIMITED_WORDS: Final = ("unlimited", "u", "∞")


def token_pattern(redeals: str = "[0-9]+") -> str:
    """The variant token's grammar as a regular expression (to match in full), the one
    declaration every reader uses; ``redeals`` is the pattern of the redeal count.
    Groups: redeals, waste, no-privilege."""
    L = TOKEN_LETTERS
    return f"{L['prefix']}({redeals}|{L['unlimited']})({L['waste_playable']}?)({L['no_privileged']}?)"


#: The grammar of a token a stored game may have: at most ``MAX_REDEALS``'s digits.
STORED_TOKEN_PATTERN: Final = token_pattern(f"[0-9]{{1,{len(str(MAX_REDEALS))}}}")
_TOKEN = re.compile(token_pattern())  # any count of redeals: from_token refuses none for its size


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
        """Redeals still allowed after ``used`` (``None``: unlimited)."""
        return None if self.redeals is None else max(0, self.redeals - used)

    @property
    def token(self) -> str:
        """Compact form used in position notation: ``r3``, ``ru``, ``r0w``, ``r3wn``."""
        letters = TOKEN_LETTERS
        return (
            letters["prefix"] + (letters["unlimited"] if self.redeals is None else str(self.redeals))
            + (letters["waste_playable"] if self.waste_playable else "")
            + (letters["no_privileged"] if not self.privileged_last else "")
        )

    @classmethod
    def from_token(cls, token: str) -> Variant:
        """Read ``r3``, ``ru``, ``r0w``, ``r3wn``; ``ValueError`` (one line) otherwise."""
        m = _TOKEN.fullmatch(token)
        if m is None:
            raise ValueError(f"not a variant: {clip(token)!r} (expected r<redeals>|ru, then optional w, n)")
        try:
            redeals = None if m.group(1) == TOKEN_LETTERS["unlimited"] else parse_whole(m.group(1))
        except ValueError as e:
            raise ValueError(f"variant {clip(token)!r}: redeals: {e}") from None
        return cls(
            redeals=redeals,
            waste_playable=bool(m.group(2)),
            privileged_last=not m.group(3),
        )

    def describe(self) -> str:
        """In English, e.g. ``3 redeals, privileged last card`` (``i18n`` says it in others)."""
        parts = [
            "unlimited redeals" if self.redeals is None
            else f"{self.redeals:,} redeal" + ("" if self.redeals == 1 else "s")
        ]
        if self.waste_playable:
            parts.append("waste playable")
        parts.append("privileged last card" if self.privileged_last else "no privileged card")
        return ", ".join(parts)


CANONICAL: Final = Variant()


def parse_redeals(text: str) -> int | None:
    """Redeals (V1) as typed (``--redeals``, the terminal's dialog): one of
    ``UNLIMITED_WORDS`` (any letter case) or a whole number 0…``MAX_REDEALS`` (the cap
    every stored game keeps) in ASCII digits, blanks around ignored; ``ValueError``
    otherwise (``parse_whole``'s: its words are the play layer's, ``variant.redeals``)."""
    t = text.strip()
    return None if t.lower() in UNLIMITED_WORDS else parse_whole(t, MAX_REDEALS)
