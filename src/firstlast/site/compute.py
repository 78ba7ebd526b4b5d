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
    """The worker's start: the sampler loaded, its WebAssembly compiled (``play.chance.warm``)."""
    from ..play.chance import warm as warm_chance

    return warm_chance()
