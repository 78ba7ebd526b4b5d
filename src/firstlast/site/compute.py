"""The static site's computing worker (``static/files/compute.js``, docs/site.md): the
chance estimates and stories the play worker hands it (``runtime.run_cpu``), one
pickled call at a time. Apart from ``bridge`` so that this worker's start imports the
play layer only, not the web app the play worker serves."""

from __future__ import annotations

from .. import runtime

#: One call handed over by the play worker, as latin-1 text, and its outcome.
compute = runtime.call_pickled


def warm() -> str:
    """The worker's start: the sampler loaded, its WebAssembly compiled (``play.chance.warm``)."""
    from ..play.chance import warm as warm_chance

    return warm_chance()
