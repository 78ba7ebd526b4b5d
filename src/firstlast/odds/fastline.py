"""The fast forced line: one C kernel, loaded the way this runtime allows.

``firstlast.engine.Position`` is the rules; ``forced_line.c`` (next to this file) is a
*derived* implementation of its forced line and of the deal-number stream, trusted
because tests/odds proves it equal to the engine, deal for deal under every variant and
sample for sample (docs/odds.md). This module is the one place that decides how that C
runs here, once per process (``kernel()``):

* **native** (CPython): the source is compiled at first use with the system's C
  compiler (``$CC``, else ``cc``, ``gcc`` or ``clang``: ``-O3 -shared -fPIC``) into the
  user's cache folder, keyed by the source's hash and the platform, and loaded with
  ctypes. ctypes lets go of the interpreter lock during a call, so Python threads run it
  side by side (``play_deals(parallel=True)``, Dask worker threads, servers).
* **wasmtime**: where no compiler works, the committed ``forced_line.wasm`` (the same
  source, built by ``scripts/build_wasm.py``) through wasmtime, one call at a time.
* **pyodide** (the browser, ``runtime.BROWSER``): the same ``.wasm`` through the
  browser's WebAssembly, compiled synchronously (allowed in Web Workers).
* none: ``available()`` is False and callers use the engine itself (pure Python; the
  same results, only slower).

``FIRSTLAST_FASTLINE`` = ``native``, ``wasm`` or ``none`` asks for one route only
(diagnostics, tests); unset or ``auto``: the first that works, in the order above.

Public API: ``play_deal``, ``play_deals``, ``count_deals``, ``count_unlimited``, ``RankPosition``,
``play_line``, ``sample_lines``, ``sample_start``, ``UNLIMITED``, ``redeals_arg``,
``available``, ``backend_name``, ``max_threads``; ``Kernel`` and ``load`` for one route
in particular. Results come as ``array.array`` (no numpy needed): ``won`` (``'B'``, 0 or
1), ``score`` (``'b'``) and ``passes`` (``'i'``), one entry per deal or sample.
"""

from __future__ import annotations

import array
import hashlib
import os
import stat
import struct
import sys
import tempfile
import threading
import weakref
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from importlib import resources
from itertools import compress
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, NamedTuple, Protocol

from .. import runtime
from ..engine import Position, Variant
from ..engine.rng import RngState

__all__ = [
    "STUCK_PASSES", "UNLIMITED", "DealCounts", "Kernel", "Lines", "RankPosition", "Unavailable", "UnlimitedCounts",
    "available", "backend_name", "count_deals", "count_unlimited", "kernel", "load", "max_threads", "play_deal",
    "play_deals", "play_line", "redeals_arg", "sample_lines", "sample_start",
]

#: ``redeals`` of the kernels for unlimited redeals (V1).
UNLIMITED: Final = -1
#: The C source and its WebAssembly build, in this package.
SOURCE: Final = "forced_line.c"
WASM: Final = "forced_line.wasm"
#: What ``fl_info`` must report: ABI version, bytes of a job, pass bins of a tally.
ABI: Final = 2
JOB_BYTES: Final = 312
PASS_BINS: Final = 256
#: Redeal counts 0 … STUCK_PASSES − 1 whose games ``fl_tally_stuck`` counts too.
STUCK_PASSES: Final = 16
#: The native build: the system compiler with these flags.
CFLAGS: Final = ("-O3", "-shared", "-fPIC")
#: Deals per thread at least, when a batch is shared out.
BLOCK: Final = 4096
#: Largest count one call takes (the C side counts in 32 bits).
_MAX_CALL: Final = 1 << 30
_I64_MAX: Final = 2**63 - 1
_TOP: Final = 2**64 - 1
#: Tally layout (``fl_tally_range``): games, wins, beyond the pass bins, 105 scores, bins.
_T_SCORES: Final = 3
_T_ALL: Final = _T_SCORES + 105
_T_WON: Final = _T_ALL + PASS_BINS
_T_SIZE: Final = _T_WON + PASS_BINS
#: ``fl_tally_stuck``: the same, then STUCK_PASSES histograms of 105 scores.
_S_SIZE: Final = _T_SIZE + 105 * STUCK_PASSES


class Unavailable(RuntimeError):
    """A route to the kernel does not work here (the message says why)."""


class Lines(NamedTuple):
    """Per deal or per sample: won (0/1), score (cards on the piles), passes."""

    won: array.array[int]
    score: array.array[int]
    passes: array.array[int]


class DealCounts(NamedTuple):
    """Counts of many games: ``scores[s]`` games ending with s cards on the piles
    (105 entries), ``passes_all[p]`` games that used p passes, ``passes_won[p]`` won
    games that did (no trailing zeros, at least one entry)."""

    games: int
    wins: int
    scores: tuple[int, ...]
    passes_all: tuple[int, ...]
    passes_won: tuple[int, ...]


class UnlimitedCounts(NamedTuple):
    """Counts of games with unlimited redeals (``counts``) and, from the same play, of
    the same deals with r = 0 … STUCK_PASSES − 1 redeals: ``stuck[r][s]`` deals that do
    not come out with r redeals and stop with s cards on the piles (105 entries each).

    A game with r redeals plays exactly the first r + 1 passes of the same deal with
    unlimited redeals (the same cards, the same stream for the shuffles, rules §4.6), so
    it is won exactly when the unlimited game needs at most r + 1 passes, and otherwise
    stops where the unlimited game makes its (r + 1)-th redeal."""

    counts: DealCounts
    stuck: tuple[tuple[int, ...], ...]


def trim_counts(counts: Sequence[int]) -> tuple[int, ...]:
    n = len(counts)
    while n > 1 and counts[n - 1] == 0:
        n -= 1
    return tuple(counts[:n]) if n else (0,)


def count_lines(won: Iterable[int | bool], score: Iterable[int], passes: Iterable[int]) -> DealCounts:
    """The counts of per-game results (any sequences of numbers, numpy arrays too)."""
    won_l = [bool(w) for w in won]
    score_c = Counter(int(s) for s in score)
    passes_l = [int(p) for p in passes]
    if len(passes_l) != len(won_l) or sum(score_c.values()) != len(won_l):
        raise ValueError("won, score and passes must have one entry per game")
    if any(not 0 <= s <= 104 for s in score_c) or any(p < 0 for p in passes_l):
        raise ValueError("scores are 0…104 and passes ≥ 0")
    every = Counter(passes_l)
    won_c = Counter(compress(passes_l, won_l))
    top = max(every, default=0) + 1
    return DealCounts(len(won_l), sum(won_l), tuple(score_c.get(s, 0) for s in range(105)),
                      trim_counts([every.get(p, 0) for p in range(top)]),
                      trim_counts([won_c.get(p, 0) for p in range(top)]))


def add_counts(a: DealCounts, b: DealCounts) -> DealCounts:
    """Counts of two disjoint sets of games together."""
    def add(x: tuple[int, ...], y: tuple[int, ...]) -> list[int]:
        n = max(len(x), len(y))
        return [(x[i] if i < len(x) else 0) + (y[i] if i < len(y) else 0) for i in range(n)]

    return DealCounts(a.games + b.games, a.wins + b.wins, tuple(add(a.scores, b.scores)),
                      trim_counts(add(a.passes_all, b.passes_all)), trim_counts(add(a.passes_won, b.passes_won)))


NO_COUNTS: Final = DealCounts(0, 0, (0,) * 105, (0,), (0,))


def add_unlimited(a: UnlimitedCounts, b: UnlimitedCounts) -> UnlimitedCounts:
    """``UnlimitedCounts`` of two disjoint sets of deals together."""
    return UnlimitedCounts(add_counts(a.counts, b.counts),
                           tuple(tuple(x + y for x, y in zip(p, q, strict=True))
                                 for p, q in zip(a.stuck, b.stuck, strict=True)))


def redeals_arg(variant: Variant) -> int:
    """The kernels' ``redeals``: a count, or ``UNLIMITED``."""
    return UNLIMITED if variant.redeals is None else variant.redeals


def _flags(waste_playable: bool, privileged: bool) -> int:
    return (1 if waste_playable else 0) | (2 if privileged else 0)


def _left(redeals: int) -> int:
    """Redeals still allowed, as the kernel holds them (int64): more than 2^63 − 1 can
    never be used up (each takes a pass), so they are as good as that many."""
    if redeals < UNLIMITED:
        raise ValueError(f"redeals must be ≥ 0 or UNLIMITED, not {redeals}")
    return min(redeals, _I64_MAX)


@dataclass(frozen=True, slots=True)
class RankPosition:
    """A position that is still playing, as the kernels read it: ranks 0…12 (ace…king),
    −1 for a gap. Build it with ``RankPosition.of(position)``.

    ``first``: F1…F8; ``rcount``: how many reserve cards of each rank (which slot holds
    a card never matters to the forced line, see forced_line.c); ``stock``: in turning
    order; ``waste``: bottom to top; ``active``: the active pile (R3), ``held``: its
    cards without the base; ``redeals_left``: a count, or ``UNLIMITED``."""

    first: tuple[int, ...]
    rcount: tuple[int, ...]
    stock: tuple[int, ...]
    waste: tuple[int, ...]
    active: int
    held: int
    redeals_used: int
    redeals_left: int
    waste_playable: bool
    privileged: bool

    @classmethod
    def of(cls, pos: Position) -> RankPosition:
        """``pos`` in ranks; ``ValueError`` if it is already won (nothing to play)."""
        k = pos.active
        if k is None:
            raise ValueError("the position is won: there is no line to play")
        rcount = [0] * 13
        for c in pos.reserve:
            if c is not None:
                rcount[c.rank - 1] += 1
        left = pos.redeals_left
        v = pos.variant
        return cls(tuple(-1 if c is None else c.rank - 1 for c in pos.first), tuple(rcount),
                   tuple(c.rank - 1 for c in pos.stock), tuple(c.rank - 1 for c in pos.waste), k,
                   len(pos.piles[k]), pos.redeals_used, UNLIMITED if left is None else left, v.waste_playable,
                   v.privileged_last)


# ----------------------------------------------------------------------- routes
if TYPE_CHECKING:
    from concurrent.futures import ThreadPoolExecutor

    Arg = int | bytes | array.array[Any]


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


#: The exported functions and their arguments: p a buffer, i a 32-bit count.
SIGNATURES: Final = {
    "fl_info": "p", "fl_play_range": "pppp", "fl_play_list": "ppppp", "fl_tally_range": "pp", "fl_tally_stuck": "pp",
    "fl_play_line": "pp", "fl_sample_lines": "pppp", "fl_sample_start": "pp", "fl_seed": "p",
    "fl_next": "pip", "fl_below": "ppip", "fl_shuffle": "ppi",
}


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

    def call(self, fn: str, *args: Arg) -> None:
        self._fns[fn](*(a.buffer_info()[0] if isinstance(a, array.array) else a for a in args))


class WasmCalls:
    """The kernel as WebAssembly (wasmtime or a browser): buffers are copied into the
    module's arena and the results back, one call at a time. ``read``, ``write`` and
    ``fns`` are the only things the two hosts do differently."""

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
        info = self._info_at(self._arena)
        self.room = info[2]
        _check_info(info, name)

    def _info_at(self, at: int) -> array.array[int]:
        self._fns["fl_info"](at)
        return array.array("i", bytes(self._read(at, 16)))

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


def _check_info(info: Sequence[int], where: str) -> None:
    if (info[0], info[1], info[3]) != (ABI, JOB_BYTES, PASS_BINS):
        raise Unavailable(f"{where}: the kernel's ABI {tuple(info)} is not this module's {(ABI, JOB_BYTES, PASS_BINS)}")


def _package_file(name: str) -> bytes:
    return resources.files(__package__ or "firstlast.odds").joinpath(name).read_bytes()


# ----------------------------------------------------------------------- native build
def source_hash() -> str:
    """SHA-256 of forced_line.c (what the .wasm and the native builds are keyed by)."""
    return hashlib.sha256(_package_file(SOURCE)).hexdigest()


def compiler() -> list[str]:
    """The C compiler command: ``$CC`` when set, else the first of cc, gcc, clang."""
    import shlex
    import shutil

    cc = os.environ.get("CC", "").strip()
    if cc:
        return shlex.split(cc)
    for name in ("cc", "gcc", "clang"):
        found = shutil.which(name)
        if found:
            return [found]
    raise Unavailable("no C compiler (cc, gcc or clang) on the PATH, and $CC is not set")


def _suffix() -> str:
    return ".dll" if sys.platform == "win32" else ".dylib" if sys.platform == "darwin" else ".so"


def library_name() -> str:
    """The native build's file name: the source's hash, the flags and the platform."""
    import platform
    import sysconfig

    key = "|".join([source_hash(), " ".join(CFLAGS), sysconfig.get_platform(), platform.machine(),
                    str(struct.calcsize("P"))])
    return f"forced_line-{hashlib.sha256(key.encode()).hexdigest()[:20]}{_suffix()}"


def _private_dir(path: Path) -> bool:
    """Whether ``path`` and the folder it is in are folders only this user can write
    (made, 0700, if missing)."""
    try:
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
        stats = [path.lstat(), path.parent.lstat()]
    except OSError:
        return False
    for st in stats:
        if not stat.S_ISDIR(st.st_mode):
            return False
        if hasattr(os, "getuid") and (st.st_uid != os.getuid() or st.st_mode & 0o022):
            return False
    return True


def cache_dirs() -> list[Path]:
    """Where native builds are kept, in order: the user's cache folder, else a private
    folder in the system's temporary folder. A folder others can write is never used:
    the library in it is loaded and run."""
    import platformdirs

    user = str(os.getuid()) if hasattr(os, "getuid") else os.environ.get("USERNAME", "user")
    places = [Path(platformdirs.user_cache_dir("firstlast")) / "forced-line",
              Path(tempfile.gettempdir()) / f"firstlast-{user}" / "forced-line"]
    return [p for p in places if _private_dir(p)]


def build(folder: Path, cc: list[str] | None = None) -> Path:
    """Compile forced_line.c into ``folder`` (``library_name()``) and return the path.
    Safe against other processes building the same: each compiles to a name of its own
    and renames it into place (atomic; every build of one source is as good)."""
    import subprocess

    cc = compiler() if cc is None else cc
    final = folder / library_name()
    fd, tmp = tempfile.mkstemp(prefix=final.name + ".", suffix=".part", dir=folder)
    os.close(fd)
    try:
        with resources.as_file(resources.files(__package__ or "firstlast.odds").joinpath(SOURCE)) as src:
            try:
                done = subprocess.run([*cc, *CFLAGS, "-o", tmp, str(src)], capture_output=True, text=True,
                                      timeout=300, stdin=subprocess.DEVNULL)
            except (OSError, subprocess.SubprocessError) as e:
                raise Unavailable(f"the C compiler {cc[0]!r} cannot run: {e}") from None
        if done.returncode != 0:
            last = (done.stderr.strip().splitlines() or ["(no message)"])[-1]
            raise Unavailable(f"the C compiler {cc[0]!r} failed (status {done.returncode}): {last}")
        os.replace(tmp, final)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return final


def _load_native() -> NativeCalls:
    """The native kernel: a build in a cache folder, or built there now."""
    name = library_name()
    failures: list[str] = []
    for folder in cache_dirs():
        path = folder / name
        if path.is_file():
            try:
                return _open_native(path)
            except (OSError, Unavailable) as e:  # damaged, or a folder mounted noexec
                failures.append(f"{path}: {e}")
        try:
            return _open_native(build(folder))
        except OSError as e:  # cannot write or run from here: the next place
            failures.append(f"{folder}: {e}")
    with tempfile.TemporaryDirectory(prefix="firstlast-forced-line-") as d:  # no cache: build for this process
        try:
            calls = _open_native(build(Path(d)))
        except OSError as e:
            failures.append(f"{d}: {e}")
            raise Unavailable("; ".join(failures)) from None
    return calls  # the library stays loaded after its file is gone (POSIX)


def _open_native(path: Path) -> NativeCalls:
    calls = NativeCalls(path)
    info = array.array("i", [0, 0, 0, 0])
    calls.call("fl_info", info)
    _check_info(info, str(path))
    return calls


# ----------------------------------------------------------------------- WebAssembly
#: The custom section in which scripts/build_wasm.py records what the .wasm was built from.
STAMP_SECTION: Final = "firstlast.build"


def wasm_bytes() -> bytes:
    return _package_file(WASM)


def _leb(data: bytes, at: int) -> tuple[int, int]:
    """An unsigned LEB128 number at ``at``: (value, position after it)."""
    value = shift = 0
    while True:
        b = data[at]
        at += 1
        value |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            return value, at


def custom_sections(data: bytes) -> dict[str, bytes]:
    """The custom sections of a WebAssembly module: name → payload."""
    if data[:8] != b"\0asm\1\0\0\0":
        raise ValueError("not a WebAssembly module (version 1)")
    out: dict[str, bytes] = {}
    at = 8
    while at < len(data):
        kind = data[at]
        size, body = _leb(data, at + 1)
        at = body + size
        if kind == 0:
            n, name_at = _leb(data, body)
            out[data[name_at:name_at + n].decode()] = data[name_at + n:at]
    return out


def wasm_stamp(data: bytes | None = None) -> dict[str, Any]:
    """What the committed .wasm says it was built from: ``source_sha256``, ``compiler``
    and ``flags`` (``{}`` if it says nothing)."""
    import json

    section = custom_sections(wasm_bytes() if data is None else data).get(STAMP_SECTION)
    return {} if section is None else dict(json.loads(section))


def _load_wasmtime() -> WasmCalls:
    try:
        import wasmtime
    except ImportError:
        raise Unavailable("wasmtime is not installed (pip install wasmtime)") from None
    try:
        engine = wasmtime.Engine()
        store = wasmtime.Store(engine)
        module = wasmtime.Module(engine, wasm_bytes())
        exports = wasmtime.Instance(store, module, []).exports(store)
    except (OSError, wasmtime.WasmtimeError) as e:
        raise Unavailable(f"wasmtime cannot load {WASM}: {e}") from None
    memory = exports["memory"]
    assert isinstance(memory, wasmtime.Memory)

    def read(at: int, n: int) -> bytearray:
        return memory.read(store, at, at + n)

    def write(at: int, data: memoryview) -> None:
        memory.write(store, bytes(data), at)

    def bind(fn: Any) -> Callable[..., Any]:
        return lambda *args: fn(store, *args)

    fns = {n: bind(exports[n]) for n in ["fl_arena", *SIGNATURES]}
    calls = WasmCalls("wasmtime", read, write, fns)
    # Freed when the kernel goes, or at exit while the interpreter is whole: wasmtime
    # objects left to the interpreter's last clean-up print "Exception ignored …".
    weakref.finalize(calls, _close_all, store, module, engine)
    return calls


def _close_all(*objects: Any) -> None:
    for obj in objects:
        obj.close()


def _load_pyodide() -> WasmCalls:
    """The .wasm in the browser, through Pyodide's bridge to JavaScript. Synchronous
    compiling is allowed in a Web Worker, where the site runs Python."""
    try:
        from js import Uint8Array, WebAssembly  # type: ignore[import-not-found]
    except ImportError:
        raise Unavailable("no JavaScript bridge (not under Pyodide)") from None
    data = wasm_bytes()
    code = Uint8Array.new(len(data))
    code.assign(data)
    exports = WebAssembly.Instance.new(WebAssembly.Module.new(code)).exports

    def read(at: int, n: int) -> bytes:
        return bytes(Uint8Array.new(exports.memory.buffer, at, n).to_bytes())

    def write(at: int, data: memoryview) -> None:
        Uint8Array.new(exports.memory.buffer, at, len(data)).assign(data)

    fns = {n: getattr(exports, n) for n in ["fl_arena", *SIGNATURES]}
    return WasmCalls("pyodide", read, write, fns)


# ----------------------------------------------------------------------- the kernel
class Kernel:
    """The forced line through one route (``calls``)."""

    def __init__(self, calls: Calls) -> None:
        self.calls = calls
        self.name = calls.name
        self._head = struct.Struct(calls.order + "4Q3q6i")

    # --------------------------------------------------------------- jobs
    def _job(self, *, rng: Sequence[int] = (0, 0, 0, 0), first_index: int = 0, redeals_used: int = 0,
             redeals_left: int = 0, count: int = 0, flags: int = 0, rp: RankPosition | None = None) -> bytes:
        if rp is None:
            head = self._head.pack(*rng, first_index, redeals_used, redeals_left, count, 0, 0, 0, 0, flags)
            return head + bytes(JOB_BYTES - self._head.size)
        # Checked here: the C side trusts every index it is given.
        if not (len(rp.first) == 8 and len(rp.rcount) == 13 and len(rp.stock) + len(rp.waste) <= 104
                and 0 <= rp.active < 8 and 0 <= rp.held <= 12 and all(-1 <= r <= 12 for r in rp.first)
                and 0 <= rp.first[rp.active] <= 12 and all(0 <= n <= 8 for n in rp.rcount)
                and all(0 <= r <= 12 for r in (*rp.stock, *rp.waste))):
            raise ValueError("not a position the kernel can play")
        if not 0 <= rp.redeals_used <= _I64_MAX:
            raise OverflowError(f"redeals made {rp.redeals_used} do not fit the kernel's 64-bit count")
        head = self._head.pack(*rng, first_index, rp.redeals_used, _left(rp.redeals_left), count, rp.active,
                               rp.held, len(rp.stock), len(rp.waste), _flags(rp.waste_playable, rp.privileged))

        def ranks(xs: Sequence[int], size: int) -> bytes:
            return array.array("b", [*xs, *([0] * (size - len(xs)))]).tobytes()

        return head + ranks(rp.first, 8) + ranks(rp.rcount, 16) + ranks(rp.stock, 104) + ranks(rp.waste, 104)

    def _deal_job(self, variant: Variant, start: int = 0, count: int = 0) -> bytes:
        return self._job(rng=(start, 0, 0, 0), redeals_left=_left(redeals_arg(variant)), count=count,
                         flags=_flags(variant.waste_playable, variant.privileged_last))

    def _chunk(self, per_item: int, fixed: int = 0) -> int:
        room = self.calls.room
        return _MAX_CALL if room is None else max(1, (room - JOB_BYTES - fixed - 64) // per_item)

    # --------------------------------------------------------------- deals
    def _play_range(self, variant: Variant, start: int, count: int) -> Lines:
        won, score, passes = _lines(count)
        step = self._chunk(6)
        for lo in range(0, count, step):
            n = min(step, count - lo)
            part = _lines(n)
            self.calls.call("fl_play_range", self._deal_job(variant, (start + lo) & _TOP, n), *part)
            _put(won, score, passes, lo, part)
        return Lines(won, score, passes)

    def _play_list(self, variant: Variant, deals: array.array[int]) -> Lines:
        count = len(deals)
        won, score, passes = _lines(count)
        step = self._chunk(14)
        for lo in range(0, count, step):
            n = min(step, count - lo)
            part = _lines(n)
            chunk = deals if (lo, n) == (0, count) else deals[lo:lo + n]
            self.calls.call("fl_play_list", self._deal_job(variant, 0, n), chunk.tobytes(), *part)
            _put(won, score, passes, lo, part)
        return Lines(won, score, passes)

    def _count_range(self, variant: Variant, start: int, count: int) -> DealCounts:
        total = NO_COUNTS
        step = self._chunk(1, 8 * _T_SIZE)
        for lo in range(0, count, step):
            n = min(step, count - lo)
            t = array.array("Q", bytes(8 * _T_SIZE))
            first = (start + lo) & _TOP
            self.calls.call("fl_tally_range", self._deal_job(variant, first, n), t)
            if t[2]:  # a game beyond the pass bins: count this part from its lines
                got = count_lines(*self._play_range(variant, first, n))
            else:
                got = DealCounts(t[0], t[1], tuple(t[_T_SCORES:_T_ALL]), trim_counts(t[_T_ALL:_T_WON]),
                                 trim_counts(t[_T_WON:_T_SIZE]))
            total = add_counts(total, got)
        return total

    def _count_unlimited(self, variant: Variant, start: int, count: int) -> UnlimitedCounts:
        counts = NO_COUNTS
        stuck = [0] * (105 * STUCK_PASSES)
        step = self._chunk(1, 8 * _S_SIZE)
        for lo in range(0, count, step):
            n = min(step, count - lo)
            t = array.array("Q", bytes(8 * _S_SIZE))
            first = (start + lo) & _TOP
            self.calls.call("fl_tally_stuck", self._deal_job(variant, first, n), t)
            if t[2]:  # a game beyond the pass bins: count this part from its lines (the rest holds)
                got = count_lines(*self._play_range(variant, first, n))
            else:
                got = DealCounts(t[0], t[1], tuple(t[_T_SCORES:_T_ALL]), trim_counts(t[_T_ALL:_T_WON]),
                                 trim_counts(t[_T_WON:_T_SIZE]))
            counts = add_counts(counts, got)
            stuck = [a + b for a, b in zip(stuck, t[_T_SIZE:], strict=True)]
        return UnlimitedCounts(counts, tuple(tuple(stuck[105 * r:105 * (r + 1)]) for r in range(STUCK_PASSES)))

    def _parts(self, count: int, parallel: bool, workers: int | None) -> list[tuple[int, int]]:
        """(offset, size) of the parts a batch is shared out in, one per thread."""
        n = 1
        if parallel and self.calls.parallel and runtime.THREADS:
            n = max(1, min(workers or max_threads(), -(-count // BLOCK)))
        size = -(-count // n) if count else 0
        return [(lo, min(size, count - lo)) for lo in range(0, count, size)] if count else []

    def _shared(self, count: int, parallel: bool, workers: int | None,
                fn: Callable[[int, int], Any]) -> list[Any]:
        parts = self._parts(count, parallel, workers)
        if len(parts) <= 1:
            return [fn(lo, n) for lo, n in parts]
        return list(_pool().map(lambda p: fn(*p), parts))

    def play_deals(self, deals: range | Iterable[int], variant: Variant, parallel: bool = True,
                   workers: int | None = None) -> Lines:
        """Play many deals from their start: ``Lines``, one entry per deal.

        ``deals``: a ``range`` of deal numbers (step 1; no list is built for it) or any
        sequence of them (a list, ``array('Q')``, a numpy array). ``parallel``: share
        the deals out over ``workers`` threads (all, by default) where the route allows;
        ``False`` for callers that bring their own parallelism (Dask worker threads)."""
        if isinstance(deals, range):
            start, count = _check_range(deals)
            parts = self._shared(count, parallel, workers,
                                 lambda lo, n: self._play_range(variant, (start + lo) & _TOP, n))
        else:
            arr = _deal_array(deals)
            count = len(arr)
            parts = self._shared(count, parallel, workers, lambda lo, n: self._play_list(variant, arr[lo:lo + n]))
        if len(parts) == 1:
            return parts[0]  # type: ignore[no-any-return]
        won, score, passes = _lines(0)
        for p in parts:
            won.extend(p.won)
            score.extend(p.score)
            passes.extend(p.passes)
        return Lines(won, score, passes)

    def play_deal(self, deal: int, variant: Variant) -> tuple[bool, int, int]:
        """One deal along the forced line: (won, score, passes) as ``engine.play_out``."""
        won, score, passes = self.play_deals(range(deal, deal + 1), variant, parallel=False)
        return bool(won[0]), score[0], passes[0]

    def count_deals(self, deals: range, variant: Variant, parallel: bool = True,
                    workers: int | None = None) -> DealCounts:
        """The counts of ``deals`` (a ``range``) played out, without per-deal results."""
        start, count = _check_range(deals)
        total = NO_COUNTS
        for part in self._shared(count, parallel, workers,
                                 lambda lo, n: self._count_range(variant, (start + lo) & _TOP, n)):
            total = add_counts(total, part)
        return total

    def count_unlimited(self, deals: range, variant: Variant, parallel: bool = True,
                        workers: int | None = None) -> UnlimitedCounts:
        """``deals`` (a ``range``) played out with unlimited redeals (``variant.redeals``
        is None), counted together with what the same deals do with 0 … STUCK_PASSES − 1
        redeals (``UnlimitedCounts``): one run of the unlimited game counts them all."""
        if variant.redeals is not None:
            raise ValueError(f"count_unlimited plays unlimited redeals, not {variant.token}")
        start, count = _check_range(deals)
        parts = self._shared(count, parallel, workers,
                             lambda lo, n: self._count_unlimited(variant, (start + lo) & _TOP, n))
        total = UnlimitedCounts(NO_COUNTS, ((0,) * 105,) * STUCK_PASSES)
        for part in parts:
            total = add_unlimited(total, part)
        return total

    # --------------------------------------------------------------- positions
    def play_line(self, rp: RankPosition, rng: RngState) -> tuple[bool, int, int]:
        """Play ``rp`` out as it stands (its stock order; its redeals shuffled with the
        stream ``rng``, as ``Position.rng`` is): (won, score, passes), the same as
        walking ``Position.forced_move()`` to the end."""
        out = array.array("i", [0, 0, 0])
        self.calls.call("fl_play_line", self._job(rng=rng, rp=rp), out)
        return bool(out[0]), out[1], out[2]

    def sample_start(self, seed: int, i: int) -> RngState:
        """The stream sample ``i`` of ``sample_lines(…, seed)`` starts from: the §4.1
        seeding of (the SplitMix64 output of ``seed``) + ``i``, modulo 2^64. The sample
        draws from it, in order, the shuffle of the stock, then the shuffle of each
        redeal it makes. ``seed``: 0…2^64−1; ``i``: 0…2^63−1."""
        if not (0 <= seed <= _TOP and 0 <= i <= _I64_MAX):
            raise ValueError(f"seed 0…2^64−1 and sample 0…2^63−1, not {seed}, {i}")
        out = array.array("Q", [0, 0, 0, 0])
        self.calls.call("fl_sample_start", self._job(rng=(seed, 0, 0, 0), first_index=i), out)
        return out[0], out[1], out[2], out[3]

    def sample_lines(self, rp: RankPosition, samples: int, seed: int, start: int = 0) -> Lines:
        """Play ``rp`` out as samples ``start … start+samples−1``, sample ``i`` with the
        unseen stock shuffled uniformly and random redeals, all drawn from its own
        stream (``sample_start``): ``Lines``, one entry per sample. The same seed gives
        the same results, and a run cut in parts (``start``) the same samples."""
        if not (0 <= seed <= _TOP):
            raise ValueError(f"seed must be 0…2^64−1, not {seed}")
        if not (samples >= 0 and start >= 0 and start + samples <= 2**63):
            raise ValueError(f"samples start…start+samples−1 must lie in 0…2^63−1, not {start}, {samples}")
        won, score, passes = _lines(samples)
        step = self._chunk(6)
        for lo in range(0, samples, step):
            n = min(step, samples - lo)
            part = _lines(n)
            self.calls.call("fl_sample_lines", self._job(rng=(seed, 0, 0, 0), first_index=start + lo, count=n, rp=rp),
                            *part)
            _put(won, score, passes, lo, part)
        return Lines(won, score, passes)

    # --------------------------------------------------------------- the stream's pieces (tests)
    def seed(self, deal: int) -> RngState:
        """§4.1: the xoshiro256** state of ``deal``."""
        io = array.array("Q", [deal, 0, 0, 0])
        self.calls.call("fl_seed", io)
        return io[0], io[1], io[2], io[3]

    def next(self, state: RngState, count: int) -> tuple[RngState, list[int]]:
        """``count`` outputs of xoshiro256** from ``state``, and the state after them."""
        s = array.array("Q", state)
        out = array.array("Q", bytes(8 * count))
        self.calls.call("fl_next", s, count, out)
        return (s[0], s[1], s[2], s[3]), out.tolist()

    def below(self, state: RngState, n: int, count: int) -> tuple[RngState, list[int]]:
        """``count`` draws in [0, n) (§4.2), and the state after them."""
        s = array.array("Q", state)
        out = array.array("Q", bytes(8 * count))
        self.calls.call("fl_below", s, array.array("Q", [n]).tobytes(), count, out)
        return (s[0], s[1], s[2], s[3]), out.tolist()

    def shuffle(self, state: RngState, items: Sequence[int]) -> tuple[RngState, list[int]]:
        """``items`` (−128…127) shuffled (§4.3), and the state after it."""
        s = array.array("Q", state)
        a = array.array("b", items)
        self.calls.call("fl_shuffle", s, a, len(a))
        return (s[0], s[1], s[2], s[3]), a.tolist()


def _lines(n: int) -> Lines:
    return Lines(array.array("B", bytes(n)), array.array("b", bytes(n)), array.array("i", bytes(4 * n)))


def _put(won: array.array[int], score: array.array[int], passes: array.array[int], lo: int, part: Lines) -> None:
    n = len(part.won)
    if n == len(won):
        won[:], score[:], passes[:] = part
    else:
        won[lo:lo + n] = part.won
        score[lo:lo + n] = part.score
        passes[lo:lo + n] = part.passes


def _check_range(deals: range) -> tuple[int, int]:
    if deals.step != 1:
        raise ValueError("a range of deals must have step 1")
    if len(deals) and not (deals.start >= 0 and deals.stop - 1 <= _TOP):
        raise ValueError("deal numbers must be 0…2^64−1")
    return (deals.start if len(deals) else 0), len(deals)


def _deal_array(deals: Iterable[int]) -> array.array[int]:
    """Deal numbers as ``array('Q')``; a 64-bit unsigned buffer (numpy's uint64) is
    taken as it is."""
    try:
        view = memoryview(deals)  # type: ignore[arg-type]
    except TypeError:
        view = None
    if view is not None and view.itemsize == 8 and view.format.lstrip("@=<") in ("Q", "L") and view.ndim == 1:
        arr = array.array("Q")
        arr.frombytes(view.tobytes())
        return arr
    try:
        return array.array("Q", (int(d) for d in deals))
    except OverflowError:
        raise ValueError("deal numbers must be 0…2^64−1") from None


# ----------------------------------------------------------------------- threads
_pool_lock = threading.Lock()
_the_pool: ThreadPoolExecutor | None = None


def max_threads() -> int:
    """Most threads a batch is shared out over here: this process's cores where the
    route runs calls side by side (native), else 1."""
    k = kernel()
    if k is None or not k.calls.parallel or not runtime.THREADS:
        return 1
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _pool() -> ThreadPoolExecutor:
    global _the_pool
    from concurrent.futures import ThreadPoolExecutor

    with _pool_lock:
        if _the_pool is None:
            _the_pool = ThreadPoolExecutor(max_workers=max_threads(), thread_name_prefix="firstlast-fastline")
        return _the_pool


# ----------------------------------------------------------------------- choosing, once
ROUTES: Final = ("native", "wasm", "none")
_choose_lock = threading.Lock()
_chosen: list[Kernel | None] = []
#: Why each route that was tried did not work (empty when the first one did).
why_not: list[str] = []


def load(route: str) -> Kernel:
    """A kernel through ``route`` — ``native``, ``wasmtime`` or ``pyodide`` — or
    ``Unavailable`` saying why not. Not cached: ``kernel()`` is the process's one."""
    loaders: dict[str, Callable[[], Calls]] = {"native": _load_native, "wasmtime": _load_wasmtime,
                                                "pyodide": _load_pyodide}
    if route not in loaders:
        raise ValueError(f"route must be one of {sorted(loaders)}, not {route!r}")
    return Kernel(loaders[route]())


def choose(wanted: str | None = None) -> Kernel | None:
    """The first route that works here (``FIRSTLAST_FASTLINE`` or ``wanted`` may narrow
    it to ``native``, ``wasm`` or ``none``); reasons for the others go to ``why_not``."""
    wanted = (wanted or os.environ.get("FIRSTLAST_FASTLINE", "") or "auto").strip().lower()
    if wanted not in (*ROUTES, "auto"):
        why_not.append(f"FIRSTLAST_FASTLINE={wanted!r} is not one of auto, {', '.join(ROUTES)}")
        wanted = "auto"
    if wanted == "none":
        why_not.append("FIRSTLAST_FASTLINE=none")
        return None
    if runtime.BROWSER:
        routes = ["pyodide"]
    else:
        routes = {"native": ["native"], "wasm": ["wasmtime"]}.get(wanted, ["native", "wasmtime"])
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


def _need() -> Kernel:
    k = kernel()
    if k is None:
        raise Unavailable("no fast forced line here: " + "; ".join(why_not))
    return k


# ----------------------------------------------------------------------- module-level API
def play_deal(deal: int, variant: Variant) -> tuple[bool, int, int]:
    """One deal along the forced line: (won, score, passes) as ``engine.play_out``."""
    return _need().play_deal(deal, variant)


def play_deals(deals: range | Iterable[int], variant: Variant, parallel: bool = True,
               workers: int | None = None) -> Lines:
    """Many deals from their start: ``Lines`` (see ``Kernel.play_deals``)."""
    return _need().play_deals(deals, variant, parallel, workers)


def count_deals(deals: range, variant: Variant, parallel: bool = True, workers: int | None = None) -> DealCounts:
    """The counts of a range of deals played out (see ``Kernel.count_deals``)."""
    return _need().count_deals(deals, variant, parallel, workers)


def count_unlimited(deals: range, variant: Variant, parallel: bool = True,
                    workers: int | None = None) -> UnlimitedCounts:
    """Unlimited redeals counted with every redeal count below STUCK_PASSES (see
    ``Kernel.count_unlimited``)."""
    return _need().count_unlimited(deals, variant, parallel, workers)


def play_line(rp: RankPosition, rng: RngState) -> tuple[bool, int, int]:
    """A position played out as it stands (see ``Kernel.play_line``)."""
    return _need().play_line(rp, rng)


def sample_start(seed: int, i: int) -> RngState:
    """The stream sample ``i`` of ``seed`` starts from (see ``Kernel.sample_start``)."""
    return _need().sample_start(seed, i)


def sample_lines(rp: RankPosition, samples: int, seed: int, start: int = 0) -> Lines:
    """Samples of a position played out (see ``Kernel.sample_lines``)."""
    return _need().sample_lines(rp, samples, seed, start)
