"""The README's Python example runs as a doctest."""

import doctest
from pathlib import Path


def test_readme_example_runs() -> None:
    readme = Path(__file__).parent.parent / "README.md"
    result = doctest.testfile(str(readme), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 8 and result.failed == 0
