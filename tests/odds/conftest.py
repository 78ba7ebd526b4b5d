"""The odds tests' import path. (Their long checks are marked ``slow``, which
tests/conftest.py skips unless asked for, as everywhere.)"""

from __future__ import annotations

import sys
from pathlib import Path

# ``tests/naive.py`` (the naive reference implementations) imports as ``naive``.
_TESTS = str(Path(__file__).parent.parent)
if _TESTS not in sys.path:
    sys.path.insert(0, _TESTS)

