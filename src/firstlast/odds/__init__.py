"""Odds of First and Last: a compiled forced line, win rates with intervals, live chances."""

from __future__ import annotations
