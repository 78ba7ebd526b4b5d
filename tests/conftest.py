import sys
from pathlib import Path

# Test helpers (tests/engine/builders.py) import as top-level modules.
sys.path.insert(0, str(Path(__file__).parent / "engine"))
