"""The odds tests: their long checks are marked ``slow``, which tests/conftest.py skips
unless asked for, as everywhere; ``naive`` and ``kernels`` import through the path that
tests/conftest.py sets."""
