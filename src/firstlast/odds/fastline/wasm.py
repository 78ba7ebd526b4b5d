"""The WebAssembly routes: the committed ``forced_line.wasm`` (built from the same source
by ``scripts/build_wasm.py``) through wasmtime, or through the browser's WebAssembly
under Pyodide (compiled synchronously, which a Web Worker allows)."""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Any

from .abi import SIGNATURES, WASM, Unavailable, WasmCalls, package_file


def wasm_bytes() -> bytes:
    return package_file(WASM)


def load_wasmtime() -> WasmCalls:
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

    calls = WasmCalls("wasmtime", read, write, {n: bind(exports[n]) for n in ["fl_arena", *SIGNATURES]})
    # Freed when the kernel goes, or at exit while the interpreter is whole: wasmtime
    # objects left to the interpreter's last clean-up print "Exception ignored …".
    weakref.finalize(calls, _close_all, store, module, engine)
    return calls


def _close_all(*objects: Any) -> None:
    for obj in objects:
        obj.close()


def load_pyodide() -> WasmCalls:
    """The .wasm in the browser, through Pyodide's bridge to JavaScript."""
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

    return WasmCalls("pyodide", read, write, {n: getattr(exports, n) for n in ["fl_arena", *SIGNATURES]})
