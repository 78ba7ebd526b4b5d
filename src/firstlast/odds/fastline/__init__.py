"""The fast forced line: one C kernel, loaded the way this runtime allows (docs/odds.md,
"The fast forced line"). ``odds/forced_line.c`` is a *derived* implementation of the
engine's forced line, trusted because tests/odds proves it equal to the engine; where no
route works (``available()``), callers use the engine itself (the same results, slower).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable

from ... import runtime
from ...engine import Variant
from .abi import ABI, JOB_BYTES, PASS_BINS, SIGNATURES, Calls, NativeCalls, Unavailable, WasmCalls, check_info
from .kernel import UNLIMITED, Kernel, Lines, RankPosition
from .native import build, compiler, library_name, load_native, source_hash
from .wasm import load_pyodide, load_wasmtime, wasm_bytes

__all__ = [
    "ABI", "JOB_BYTES", "PASS_BINS", "SIGNATURES", "UNLIMITED", "Calls", "Kernel", "Lines", "NativeCalls",
    "RankPosition", "Unavailable", "WasmCalls", "available", "backend_name", "build", "check_info", "choose",
    "compiler", "kernel", "library_name", "load", "max_threads", "need", "play_deals", "source_hash", "wasm_bytes",
    "why_not",
]

_choose_lock = threading.Lock()
_chosen: list[Kernel | None] = []
#: Why each route that was tried did not work (empty when the first one did).
why_not: list[str] = []


def load(route: str) -> Kernel:
    """A kernel through ``route`` — ``native``, ``wasmtime`` or ``pyodide`` — or
    ``Unavailable`` saying why not. Not cached: ``kernel()`` is the process's one."""
    loaders: dict[str, Callable[[], Calls]] = {"native": load_native, "wasmtime": load_wasmtime,
                                                "pyodide": load_pyodide}
    if route not in loaders:
        raise ValueError(f"route must be one of {sorted(loaders)}, not {route!r}")
    return Kernel(loaders[route]())


def choose() -> Kernel | None:
    """The first of ``runtime.kernel_routes()`` that works here; reasons for the others
    go to ``why_not``."""
    routes, note = runtime.kernel_routes()
    if note:
        why_not.append(note)
    for route in routes:
        try:
            return load(route)
        except Unavailable as e:
            why_not.append(f"{route}: {e}")
        except Exception as e:  # a host that fails its own way (a JavaScript error, a broken wheel)
            why_not.append(f"{route}: {type(e).__name__}: {e}")
    return None


def kernel() -> Kernel | None:
    """This process's kernel (chosen, and built if need be, on the first call), or None."""
    if not _chosen:
        with _choose_lock:
            if not _chosen:
                _chosen.append(choose())
    return _chosen[0]


def available() -> bool:
    """Whether a fast forced line runs here."""
    return kernel() is not None


def backend_name() -> str | None:
    """``native``, ``wasmtime``, ``pyodide``, or None (no fast line: the engine plays)."""
    k = kernel()
    return None if k is None else k.name


def max_threads() -> int:
    """Most threads a batch is shared out over here: this process's cores
    (``runtime.cores``) where the route runs calls side by side (native), else 1."""
    k = kernel()
    return runtime.cores() if k is not None and k.calls.parallel else 1


def need() -> Kernel:
    """This process's kernel, or ``Unavailable`` saying why there is none here."""
    k = kernel()
    if k is None:
        raise Unavailable("no fast forced line here: " + "; ".join(why_not))
    return k


def play_deals(deals: range | Iterable[int], variant: Variant, parallel: bool = True) -> Lines:
    """Many deals from their start by this process's kernel (``Kernel.play_deals``); a
    function of the module, so that a call of it can be pickled (the site's computing
    worker takes calls so)."""
    return need().play_deals(deals, variant, parallel)
