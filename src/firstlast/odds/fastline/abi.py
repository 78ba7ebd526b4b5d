"""The kernel's ABI, and how each host calls it.

``forced_line.c`` exports the functions of ``SIGNATURES``; every 64-bit number travels
in memory (``struct fl_job``, ``JOB_BYTES``), never as an argument, so a JavaScript host
needs no BigInt. ``NativeCalls`` passes buffers in place (ctypes); ``WasmCalls`` copies
them into the module's arena and the results back, for wasmtime and Pyodide alike, which
differ only in ``read``, ``write`` and ``fns``.
"""

from __future__ import annotations

import array
import threading
from collections.abc import Callable, Sequence
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, Protocol

#: The C source and its WebAssembly build, in ``firstlast.odds``.
SOURCE: Final = "forced_line.c"
WASM: Final = "forced_line.wasm"
#: What ``fl_info`` must report: ABI version, bytes of a job, pass bins of a tally.
ABI: Final = 2
JOB_BYTES: Final = 312
PASS_BINS: Final = 256

#: The exported functions and their arguments: p a buffer, i a 32-bit count.
SIGNATURES: Final = {
    "fl_info": "p", "fl_play_range": "pppp", "fl_play_list": "ppppp", "fl_tally_range": "pp", "fl_tally_stuck": "pp",
    "fl_play_line": "pp", "fl_sample_lines": "pppp", "fl_sample_start": "pp", "fl_seed": "p",
    "fl_next": "pip", "fl_below": "ppip", "fl_shuffle": "ppi",
}

if TYPE_CHECKING:
    Arg = int | bytes | array.array[Any]


class Unavailable(RuntimeError):
    """A route to the kernel does not work here (the message says why)."""


def package_file(name: str) -> bytes:
    """``forced_line.c`` or ``forced_line.wasm``, as the package holds it."""
    return resources.files("firstlast.odds").joinpath(name).read_bytes()


class Calls(Protocol):
    """How one route calls the C functions. Arguments: ``int`` (a small count),
    ``bytes`` (read by C) or ``array.array`` (read, and written back)."""

    name: str
    #: ``struct`` byte order of the C side's memory.
    order: str
    #: Bytes of buffers one call may take (None: no limit).
    room: int | None
    #: Whether threads can run calls side by side.
    parallel: bool

    def call(self, fn: str, *args: Arg) -> None: ...


def check_info(info: Sequence[int], where: str) -> None:
    if (info[0], info[1], info[3]) != (ABI, JOB_BYTES, PASS_BINS):
        raise Unavailable(f"{where}: the kernel's ABI {tuple(info)} is not this module's {(ABI, JOB_BYTES, PASS_BINS)}")


class NativeCalls:
    """The kernel compiled for this machine, through ctypes: buffers are passed in place."""

    name: str = "native"
    order: str = "="
    room: int | None = None
    parallel: bool = True

    def __init__(self, path: Path) -> None:
        import ctypes  # here: the browser's routes need none of the native one's modules

        self.path = path
        lib = ctypes.CDLL(str(path))
        self._fns: dict[str, Any] = {}
        for fn, sig in SIGNATURES.items():
            f = getattr(lib, fn)
            f.argtypes = [ctypes.c_void_p if k == "p" else ctypes.c_int32 for k in sig]
            f.restype = None
            self._fns[fn] = f
        info = array.array("i", [0, 0, 0, 0])
        self.call("fl_info", info)
        check_info(info, str(path))

    def call(self, fn: str, *args: Arg) -> None:
        self._fns[fn](*(a.buffer_info()[0] if isinstance(a, array.array) else a for a in args))


class WasmCalls:
    """The kernel as WebAssembly (wasmtime or a browser): buffers are copied into the
    module's arena and the results back, one call at a time."""

    order: str = "<"
    room: int | None
    parallel: bool = False

    def __init__(self, name: str, read: Callable[[int, int], bytes | bytearray],
                 write: Callable[[int, memoryview], None], fns: dict[str, Callable[..., Any]]) -> None:
        self.name = name
        self._read = read
        self._write = write
        self._fns = fns
        self._lock = threading.Lock()
        self._arena = int(fns["fl_arena"]())
        fns["fl_info"](self._arena)
        info = array.array("i", bytes(read(self._arena, 16)))
        self.room = info[2]
        check_info(info, name)

    def call(self, fn: str, *args: Arg) -> None:
        with self._lock:
            at = self._arena
            end = at + (self.room or 0)
            addrs: list[int] = []
            back: list[tuple[array.array[Any], int, int]] = []
            for a in args:
                if isinstance(a, int):
                    addrs.append(a)
                    continue
                data = memoryview(a).cast("B")
                n = len(data)
                if at + n > end:
                    raise ValueError(f"{fn}: {n} bytes do not fit in the arena")
                self._write(at, data)
                addrs.append(at)
                if isinstance(a, array.array):
                    back.append((a, at, n))
                at += -(-n // 8) * 8  # 8-byte aligned
            self._fns[fn](*addrs)
            for a, off, n in back:
                memoryview(a).cast("B")[:] = bytes(self._read(off, n))
