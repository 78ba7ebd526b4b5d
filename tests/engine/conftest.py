"""``tests/naive.py`` (the naive reference implementations) imports as ``naive``."""

import sys
from pathlib import Path

_TESTS = str(Path(__file__).parent.parent)
if _TESTS not in sys.path:
    sys.path.insert(0, _TESTS)
