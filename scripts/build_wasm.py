"""Build src/firstlast/odds/forced_line.wasm from forced_line.c (the one kernel source).

    python scripts/build_wasm.py [--clang clang] [--check]

Needs clang and lld (Debian: ``apt-get install clang lld``). The module is freestanding:
no libc, no imports; it exports its functions and its memory (the callers' arena is a
static buffer in it). A custom section, ``firstlast.build``, records the SHA-256 of the
source it was built from, the compiler and the flags; ``tests/odds`` checks that hash
against the source, so a .wasm left behind after the C changed fails the tests (no clang
needed there). ``--check`` only says whether the committed .wasm is fresh (exit 1 if not).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ODDS = ROOT / "src" / "firstlast" / "odds"
SOURCE = ODDS / "forced_line.c"
TARGET = ODDS / "forced_line.wasm"
SECTION = "firstlast.build"
FLAGS = [
    "--target=wasm32", "-nostdlib", "-ffreestanding", "-O3",
    # memory.copy/memory.fill for the copies the compiler makes (no memcpy to import);
    # every browser Pyodide runs in, and wasmtime, have them.
    "-mbulk-memory",
    "-Wall", "-Wextra", "-Werror",
    "-Wl,--no-entry",  # a library: no _start
    "-Wl,--stack-first",  # a stack overflow traps instead of writing over the arena
    "-Wl,-z,stack-size=65536",
    "-Wl,--strip-all",  # no names: the exports are all a caller needs
]


def leb128(n: int) -> bytes:
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def custom_section(name: str, payload: bytes) -> bytes:
    body = leb128(len(name.encode())) + name.encode() + payload
    return b"\0" + leb128(len(body)) + body


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


def stamp(data: bytes) -> dict[str, object]:
    """What a .wasm says it was built from (``source_sha256``, ``compiler``, ``flags``;
    ``{}`` if it says nothing)."""
    section = custom_sections(data).get(SECTION)
    return {} if section is None else dict(json.loads(section))


def source_sha256() -> str:
    return hashlib.sha256(SOURCE.read_bytes()).hexdigest()


def build(clang: str) -> bytes:
    version = subprocess.run([clang, "--version"], capture_output=True, text=True, check=True).stdout.splitlines()[0]
    with tempfile.TemporaryDirectory() as d:
        out = Path(d) / "forced_line.wasm"
        subprocess.run([clang, *FLAGS, "-o", str(out), str(SOURCE)], check=True)
        data = out.read_bytes()
    made = {"source_sha256": source_sha256(), "compiler": version, "flags": FLAGS}
    return data + custom_section(SECTION, json.dumps(made, sort_keys=True).encode())


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--clang", default="clang", help="the clang to build with (default: clang)")
    ap.add_argument("--check", action="store_true", help="only check that the committed .wasm is fresh")
    args = ap.parse_args()
    if args.check:
        fresh = stamp(TARGET.read_bytes()).get("source_sha256") == source_sha256()
        print(f"{TARGET.name}: {'fresh' if fresh else 'STALE: run python scripts/build_wasm.py'}")
        return 0 if fresh else 1
    data = build(args.clang)
    TARGET.write_bytes(data)
    print(f"wrote {TARGET.relative_to(ROOT)} ({len(data):,} bytes) from {SOURCE.name} sha256 {source_sha256()[:16]}…")
    return 0


if __name__ == "__main__":
    sys.exit(main())
