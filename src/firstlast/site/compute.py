"""The static site's computing worker (``static/files/compute.js``, docs/site.md): the
chance estimates and stories the play worker hands it (``bridge.install_offload``), one
pickled call at a time. Apart from ``bridge`` so that this worker's start imports the
play layer only, not the web app the play worker serves."""

from __future__ import annotations

from .. import runtime


def compute(call: str) -> str:
    """One call (``runtime.call_pickled``, as latin-1 text), its outcome."""
    return runtime.call_pickled(call.encode("latin-1")).decode("latin-1")


def warm() -> str:
    """The worker's start: the fast forced line loaded (its WebAssembly compiled) and
    played once, so that the deal's first estimate spends its budget sampling, not
    loading. Answers the route (``odds.fastline.backend_name``), or why there is none
    (the engine then samples, slower)."""
    from ..play.chance import warm as warm_chance

    return warm_chance()
