"""Calls into the site's own Python from CPython, as its computing worker runs them.

The computing worker (``static/site/compute.js``) takes a pickled ``(fn, args)`` as
latin-1 text and answers the pickled ``("ok", value)`` or ``("error", exception)``
(``runtime.call_pickled``). Tests and the bench make
such calls here (``call``), run them in a built site's Python — under node
(``run_under_node``: the site's Pyodide and ``site-packages.zip``) or in Chromium
(``IN_A_COMPUTING_WORKER``, evaluated in the site's page: a computing worker of its own,
from the site's ``compute.js``) — and read the outcomes back here (``outcome``). So the
browser build's kernel is compared with the engine's results computed natively.
"""

from __future__ import annotations

import json
import pickle
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any


def call(fn: Callable[..., Any], *args: Any) -> str:
    """``fn(*args)`` as the computing worker takes it (``fn``: a module-level function)."""
    return pickle.dumps((fn, args)).decode("latin-1")


def outcome(text: str) -> Any:
    """What a call answered (its exception raised here)."""
    kind, value = pickle.loads(text.encode("latin-1"))
    if kind == "error":
        raise value
    return value


#: Page-side JavaScript (``page.evaluate(IN_A_COMPUTING_WORKER, calls)``): starts a
#: computing worker from the site's compute.js, hands it the calls one at a time, and
#: answers ``[ms, outcome]`` for each (ms: from posting the call to its answer).
IN_A_COMPUTING_WORKER = """async (calls) => {
  const w = new Worker(new URL("static/site/compute.js", document.baseURI), { type: "module" });
  const out = [];
  try {
    for (const [i, call] of calls.entries()) {
      const t = performance.now();
      const r = await new Promise((resolve, reject) => {
        w.onmessage = (e) => resolve(e.data);
        w.onerror = (e) => reject(new Error(e.message));
        w.postMessage({ id: i, call });
      });
      if (r.error) throw new Error(r.error);
      out.push([performance.now() - t, r.outcome]);
    }
  } finally {
    w.terminate();
  }
  return out;
}"""

#: node's side of ``run_under_node``: the site's Pyodide and package, as python.js and
#: compute.js start them in the browser, then each call through ``runtime.call_pickled``.
_NODE = r"""
import fs from "node:fs";
import { pathToFileURL } from "node:url";
const [site, job, answers] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(site + "/pyodide/pyodide.mjs").href);
const py = await loadPyodide({ indexURL: site + "/pyodide/", fullStdLib: false });
const target = py.runPython("import sysconfig; sysconfig.get_paths()['purelib']");
py.unpackArchive(new Uint8Array(fs.readFileSync(site + "/py/site-packages.zip")), "zip", { extractDir: target });
py.pyimport("firstlast.play.chance").warm();
const runtime = py.pyimport("firstlast.runtime");
const out = [];
for (const call of JSON.parse(fs.readFileSync(job, "utf8"))) {
  const t = performance.now();
  const answer = String(runtime.call_pickled(call));
  out.push([performance.now() - t, answer]);
}
fs.writeFileSync(answers, JSON.stringify(out));
"""


def node() -> str | None:
    return shutil.which("node")


def run_under_node(site: Path, calls: list[str], timeout: float = 300) -> list[tuple[float, str]]:
    """Run ``calls`` in the site's Python under node (Pyodide, its WebAssembly through
    node's): ``(ms, outcome)`` for each."""
    exe = node()
    if exe is None:
        raise RuntimeError("node is not on the PATH")
    with tempfile.TemporaryDirectory(prefix="firstlast-node-") as tmp:
        work = Path(tmp)
        (work / "run.mjs").write_text(_NODE, encoding="utf-8")
        (work / "job.json").write_text(json.dumps(calls), encoding="utf-8")
        done = subprocess.run([exe, str(work / "run.mjs"), str(site.resolve()), str(work / "job.json"),
                               str(work / "answers.json")], capture_output=True, text=True, timeout=timeout,
                              check=False)
        if done.returncode != 0:
            raise RuntimeError(f"node failed ({done.returncode}): {done.stderr[-2000:]}")
        return [(float(ms), str(text)) for ms, text in json.loads((work / "answers.json").read_text("utf-8"))]


# ---------------------------------------------------------------- the kernel against the engine
#: All 20 variants: redeals 0–3 and unlimited × waste playable × privileged last card.
def variants() -> list[Any]:
    from firstlast.engine import Variant

    return [Variant(r, wp, pr) for r in (0, 1, 2, 3, None) for wp in (False, True) for pr in (True, False)]


def engine_cases(deals_per_variant: int, samples: int) -> list[tuple[str, str, Any]]:
    """(what, call, the engine's answer computed here) for the site's kernel to match:
    the deals ``deals_per_variant`` of every variant played out (``fastline.play_deals``
    against ``engine.play_out``: small, huge and scattered deal numbers), ``samples``
    samples of two positions in the middle of a game (``Kernel.sample_lines`` against
    ``live.engine_sample``, the engine playing each sample's stock order and redeals),
    and deal 1's first estimate (the chance meter's round 0) against this machine's
    kernel (5,000 engine samples would take a minute; tests/odds proves the kernel's
    samples the engine's)."""
    import random

    from firstlast.engine import Game, Position, play_out
    from firstlast.odds import fastline, live

    top = 2**64 - 1
    rnd = random.Random(20261202)
    cases: list[tuple[str, str, Any]] = []
    for v in variants():
        deals = [*range(deals_per_variant // 2), *range(top - 2, top + 1)]
        deals += [rnd.randrange(2**64) for _ in range(deals_per_variant - len(deals))]
        want = [tuple(play_out(d, v)) for d in deals]
        cases.append((f"deals {v.token}", call(fastline.play_deals, deals, v, False), want))
    for deal, v, at in ((7, variants()[5], 30), (3, variants()[16], 12)):
        game = Game(deal, v)
        game.autoplay()
        pos = game.positions[min(at, len(game.positions) - 2)]
        want = [live.engine_sample(pos, i, 99) for i in range(samples)]
        cases.append((f"samples of deal {deal} {v.token} at {at}", call(live.sample_outcomes, pos, samples, 99), want))
    pos = Position.deal(1)
    seed = live.refine_seed(pos, 0)
    want_est = live.chance_to_come_out(pos, 5000, seed, sampler="kernel")
    cases.append(("deal 1, round 0", call(live.chance_to_come_out, pos, 5000, seed), want_est))
    return cases


def as_rows(lines: Any) -> list[tuple[bool, int, int]]:
    """``fastline.Lines`` as (won, score, passes) rows, as the engine answers."""
    return [(bool(w), int(s), int(p)) for w, s, p in zip(*lines, strict=True)]
