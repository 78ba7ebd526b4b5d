"""How the fast forced line gets to run: the native build and its cache, the committed
.wasm (fresh, through wasmtime, and through the browser's WebAssembly as Pyodide calls
it), and the fallbacks — no compiler: wasmtime; nothing: the engine."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import tempfile
import tomllib
import types
from pathlib import Path
from typing import Any

import pytest
from kernels import load_route, need_compiler, play_line

from firstlast import runtime
from firstlast.engine import Game, Position, Variant
from firstlast.odds import fastline, live

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import build_wasm  # noqa: E402  (scripts/build_wasm.py: writes the .wasm's stamp, and reads it)


@pytest.fixture
def empty(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Empty caches (user and temporary folders under ``tmp_path``), no route forced."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    (tmp_path / "tmp").mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    monkeypatch.delenv("FIRSTLAST_FASTLINE", raising=False)
    monkeypatch.delenv("CC", raising=False)
    monkeypatch.setattr(fastline, "why_not", [])
    return tmp_path


@pytest.fixture
def fresh(empty: Path) -> Path:
    """``empty``, for a test that builds the native kernel."""
    need_compiler()
    return empty


def _user_build(root: Path) -> Path:
    return root / "cache" / "firstlast" / "forced-line" / fastline.library_name()


# ----------------------------------------------------------------- the committed .wasm
def test_the_committed_wasm_is_built_from_this_source() -> None:
    stamp = build_wasm.stamp(fastline.wasm_bytes())
    assert stamp.get("source_sha256") == fastline.source_hash(), "stale .wasm: run python scripts/build_wasm.py"
    assert "clang" in stamp["compiler"] and "--target=wasm32" in stamp["flags"]


def test_the_wasm_imports_nothing_and_exports_the_kernel() -> None:
    wasmtime = pytest.importorskip("wasmtime")
    module = wasmtime.Module(wasmtime.Engine(), fastline.wasm_bytes())
    assert list(module.imports) == []  # freestanding: no libc, no host functions
    assert {e.name for e in module.exports} == {"memory", "fl_arena", *fastline.SIGNATURES}


def test_the_package_ships_the_source_and_the_wasm() -> None:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["firstlast"]
    assert {"odds/forced_line.c", "odds/forced_line.wasm"} <= set(data)


def test_a_wasm_with_no_stamp_says_so() -> None:
    assert build_wasm.stamp(b"\0asm\1\0\0\0") == {}
    with pytest.raises(ValueError):
        build_wasm.custom_sections(b"not wasm")


# ----------------------------------------------------------------- native builds
def test_native_builds_once_into_the_user_cache(fresh: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    k = fastline.choose()
    assert k is not None and k.name == "native" and fastline.why_not == []
    built = _user_build(fresh)
    assert built.is_file()
    assert stat.S_IMODE(built.parent.stat().st_mode) == 0o700
    # Next time no compiler is needed: the build is loaded as it is.
    monkeypatch.setenv("CC", str(fresh / "no-such-cc"))
    before = built.stat().st_mtime_ns
    k = fastline.choose()
    assert k is not None and k.name == "native" and built.stat().st_mtime_ns == before
    assert [list(column) for column in k.play_deals([1], Variant())] == [[0], [52], [4]]


def test_a_damaged_build_is_built_again(fresh: Path) -> None:
    built = _user_build(fresh)
    built.parent.mkdir(parents=True, mode=0o700)
    built.write_bytes(b"not a library")
    k = fastline.choose()
    assert k is not None and k.name == "native"
    assert built.stat().st_size > 1000


def test_processes_building_at_once_all_get_the_kernel(fresh: Path) -> None:
    code = ("from firstlast.engine import Variant\nfrom firstlast.odds import fastline\n"
            "print(fastline.backend_name(), *fastline.need().play_deals([1], Variant()))\n")
    env = {**os.environ, "XDG_CACHE_HOME": str(fresh / "cache"), "TMPDIR": str(fresh / "tmp")}
    env.pop("FIRSTLAST_FASTLINE", None)
    procs = [subprocess.Popen([sys.executable, "-c", code], env=env, stdout=subprocess.PIPE, text=True)
             for _ in range(3)]
    outs = [p.communicate(timeout=300)[0] for p in procs]
    assert outs == ["native array('B', [0]) array('b', [52]) array('i', [4])\n"] * 3
    folder = _user_build(fresh).parent
    assert [p.name for p in folder.iterdir()] == [fastline.library_name()]  # no parts left behind


def test_an_unwritable_cache_falls_back_to_a_private_temporary_folder(fresh: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    (fresh / "wall").write_text("a file, not a folder")
    monkeypatch.setenv("XDG_CACHE_HOME", str(fresh / "wall" / "cache"))
    k = fastline.choose()
    assert k is not None and k.name == "native"
    private = fresh / "tmp" / f"firstlast-{os.getuid()}" / "forced-line"
    assert (private / fastline.library_name()).is_file()
    assert stat.S_IMODE(private.stat().st_mode) == 0o700


def test_a_folder_others_can_write_is_never_used(fresh: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The library in a cache folder is loaded and run: one others could fill is refused,
    # and the kernel is built for this process only.
    (fresh / "wall").write_text("a file, not a folder")
    monkeypatch.setenv("XDG_CACHE_HOME", str(fresh / "wall" / "cache"))
    shared = fresh / "tmp" / f"firstlast-{os.getuid()}"
    shared.mkdir()
    shared.chmod(0o777)
    k = fastline.choose()
    assert k is not None and k.name == "native"
    assert not any(shared.rglob("forced_line-*"))
    assert list((fresh / "tmp").glob("firstlast-forced-line-*")) == []  # the one-off folder is gone


# ----------------------------------------------------------------- fallbacks
def test_no_compiler_falls_back_to_wasmtime(empty: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CC", str(empty / "no-such-cc"))
    k = fastline.choose()
    assert k is not None and k.name == "wasmtime"
    assert len(fastline.why_not) == 1 and fastline.why_not[0].startswith("native: the C compiler")
    assert [list(column) for column in k.play_deals([1], Variant())] == [[0], [52], [4]]


def test_a_failing_compiler_falls_back_to_wasmtime(empty: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CC", "false")
    k = fastline.choose()
    assert k is not None and k.name == "wasmtime"
    assert "failed (status 1)" in fastline.why_not[0]
    assert not _user_build(empty).exists() and not any(_user_build(empty).parent.iterdir())


def test_nothing_falls_back_to_the_engine(empty: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CC", str(empty / "no-such-cc"))
    monkeypatch.setitem(sys.modules, "wasmtime", None)  # not installed
    assert fastline.choose() is None
    assert [w.split(":")[0] for w in fastline.why_not] == ["native", "wasmtime"]
    # The callers then use the engine itself: the same samples, only slower.
    monkeypatch.setattr(fastline, "_chosen", [None])
    assert not fastline.available() and fastline.backend_name() is None and fastline.max_threads() == 1
    pos = Position.deal(1)
    assert live.chance_to_come_out(pos, 40, 2) == live.chance_to_come_out(
        pos, 40, 2, sampler="engine")
    with pytest.raises(fastline.Unavailable, match="no fast forced line here: native"):
        fastline.play_deals(range(3), Variant())


@pytest.mark.parametrize("value,route", [("native", "native"), ("wasm", "wasmtime"), ("none", None),
                                         ("auto", "native"), ("bogus", "native")])
def test_the_environment_can_ask_for_one_route(fresh: Path, monkeypatch: pytest.MonkeyPatch, value: str,
                                               route: str | None) -> None:
    monkeypatch.setenv("FIRSTLAST_FASTLINE", value)
    k = fastline.choose()
    assert (k and k.name) == route
    assert ("bogus" in " ".join(fastline.why_not)) == (value == "bogus")


def test_a_route_that_fails_its_own_way_is_passed_over(empty: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Pyodide's JavaScript errors, a wasmtime wheel without its library: not Unavailable,
    # yet the next route (or the engine) must still be taken, never an error.
    monkeypatch.setattr(runtime, "BROWSER", True)

    def boom() -> fastline.WasmCalls:
        raise RuntimeError("JsException: CompileError")

    monkeypatch.setattr(fastline, "load_pyodide", boom)
    assert fastline.choose() is None
    assert fastline.why_not == ["pyodide: RuntimeError: JsException: CompileError"]


def test_an_abi_mismatch_is_refused() -> None:
    with pytest.raises(fastline.Unavailable, match="ABI"):
        fastline.check_info([fastline.ABI + 1, fastline.JOB_BYTES, 0, fastline.PASS_BINS], "test")


def test_the_chosen_kernel_is_this_processes_one() -> None:
    k = fastline.kernel()
    assert k is fastline.kernel() and fastline.available()
    assert fastline.backend_name() == k.name  # type: ignore[union-attr]
    assert fastline.max_threads() >= 1


# ----------------------------------------------------------------- the browser's route
def fake_js(wasmtime: Any) -> types.ModuleType:
    """What ``load_pyodide`` uses of Pyodide's ``js`` module — ``Uint8Array`` and
    ``WebAssembly`` as Pyodide proxies them — played by wasmtime, so that its Python
    side runs here as it does in the browser."""
    engine = wasmtime.Engine()

    class Code:  # Uint8Array.new(length)
        def __init__(self, n: int) -> None:
            self.data = bytearray(n)

        def assign(self, data: Any) -> None:
            self.data[:] = bytes(data)

    class View:  # Uint8Array.new(buffer, offset, length)
        def __init__(self, buffer: Any, at: int, n: int) -> None:
            self.buffer, self.at, self.n = buffer, at, n

        def to_bytes(self) -> bytes:
            return bytes(self.buffer.memory.read(self.buffer.store, self.at, self.at + self.n))

        def assign(self, data: Any) -> None:
            data = bytes(data)
            assert len(data) == self.n
            self.buffer.memory.write(self.buffer.store, data, self.at)

    def u8(*args: Any) -> Any:
        return Code(args[0]) if len(args) == 1 else View(*args)

    def instance(module: Any) -> Any:
        store = wasmtime.Store(engine)
        ex = wasmtime.Instance(store, module, []).exports(store)
        memory = ex["memory"]
        exports = types.SimpleNamespace(memory=types.SimpleNamespace(
            buffer=types.SimpleNamespace(memory=memory, store=store)))
        for name in ("fl_arena", *fastline.SIGNATURES):
            setattr(exports, name, lambda *a, f=ex[name]: f(store, *a))
        return types.SimpleNamespace(exports=exports)

    js = types.ModuleType("js")
    js.Uint8Array = types.SimpleNamespace(new=u8)  # type: ignore[attr-defined]
    js.WebAssembly = types.SimpleNamespace(  # type: ignore[attr-defined]
        Module=types.SimpleNamespace(new=lambda code: wasmtime.Module(engine, bytes(code.data))),
        Instance=types.SimpleNamespace(new=instance))
    return js


def test_the_browser_route_runs_the_same_wasm(monkeypatch: pytest.MonkeyPatch) -> None:
    wasmtime = pytest.importorskip("wasmtime")
    monkeypatch.setitem(sys.modules, "js", fake_js(wasmtime))
    monkeypatch.setattr(runtime, "BROWSER", True)
    monkeypatch.delenv("FIRSTLAST_FASTLINE", raising=False)
    k = fastline.choose()
    assert k is not None and k.name == "pyodide" and not k.calls.parallel
    native = load_route("native")
    v = Variant(2, True)
    assert k.play_deals(range(2**64 - 3000, 2**64), v) == native.play_deals(range(2**64 - 3000, 2**64), v)
    assert k.count_deals(range(20_000), v) == native.count_deals(range(20_000), v)
    g = Game(7, v)
    g.autoplay()
    rp = fastline.RankPosition.of(g.positions[30])
    assert k.sample_lines(rp, 500, 9) == native.sample_lines(rp, 500, 9)
    assert play_line(k, rp, g.positions[30].rng) == play_line(native, rp, g.positions[30].rng)


def test_outside_the_browser_there_is_no_js_bridge(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "js", None)
    with pytest.raises(fastline.Unavailable, match="Pyodide"):
        fastline.load("pyodide")
    with pytest.raises(ValueError):
        fastline.load("gpu")
