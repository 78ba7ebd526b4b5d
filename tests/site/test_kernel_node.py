"""The browser build's kernel under node: the site's own Pyodide and package
(``site-packages.zip``), its fast forced line loaded as in the browser
(``odds.fastline``'s ``pyodide`` route: the committed ``forced_line.wasm`` through
JavaScript's WebAssembly), played against the engine's results computed here, under
every variant (docs/odds.md, "The kernel in the browser").

Needs node (the test script installs Debian's); under FIRSTLAST_NO_SKIP=1 a missing node
fails instead of skipping. The same calls run in Chromium's computing worker in
test_site_meter.py.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from sitecalls import as_rows, call, engine_cases, node, outcome, run_under_node, variants

from firstlast.odds import fastline

if node() is None:
    if os.environ.get("FIRSTLAST_NO_SKIP"):
        raise RuntimeError("the browser build's kernel is tested under node: install node")
    pytest.skip("node is not on the PATH", allow_module_level=True)


def test_the_kernel_under_pyodide_is_the_engines_forced_line(site_dir: Path) -> None:
    cases = engine_cases(deals_per_variant=25, samples=200)
    many = [call(fastline.play_deals, range(2**64 - 20_000, 2**64), v, False) for v in variants()]
    answers = run_under_node(site_dir, [call(fastline.backend_name), *(c for _, c, _ in cases), *many])
    assert outcome(answers[0][1]) == "pyodide"  # the browser's route, not the engine
    for (what, _, want), (_, got) in zip(cases, answers[1:], strict=False):
        value = outcome(got)
        assert (value if what.startswith("deal 1") else as_rows(value)) == want, what
    # Many more deals against this machine's kernel (itself proven the engine's in tests/odds).
    for v, (_, got) in zip(variants(), answers[1 + len(cases):], strict=True):
        assert outcome(got) == fastline.need().play_deals(range(2**64 - 20_000, 2**64), v, parallel=False), v.token
