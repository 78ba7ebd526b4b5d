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


def source_sha256() -> str:
    return hashlib.sha256(SOURCE.read_bytes()).hexdigest()


def build(clang: str) -> bytes:
    version = subprocess.run([clang, "--version"], capture_output=True, text=True, check=True).stdout.splitlines()[0]
    with tempfile.TemporaryDirectory() as d:
        out = Path(d) / "forced_line.wasm"
        subprocess.run([clang, *FLAGS, "-o", str(out), str(SOURCE)], check=True)
        data = out.read_bytes()
    stamp = {"source_sha256": source_sha256(), "compiler": version, "flags": FLAGS}
    return data + custom_section(SECTION, json.dumps(stamp, sort_keys=True).encode())


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--clang", default="clang", help="the clang to build with (default: clang)")
    ap.add_argument("--check", action="store_true", help="only check that the committed .wasm is fresh")
    args = ap.parse_args()
    if args.check:
        sys.path.insert(0, str(ROOT / "src"))
        from firstlast.odds.fastline import wasm_stamp

        stamp = wasm_stamp(TARGET.read_bytes())
        fresh = stamp.get("source_sha256") == source_sha256()
        print(f"{TARGET.name}: {'fresh' if fresh else 'STALE: run python scripts/build_wasm.py'}")
        return 0 if fresh else 1
    data = build(args.clang)
    TARGET.write_bytes(data)
    print(f"wrote {TARGET.relative_to(ROOT)} ({len(data):,} bytes) from {SOURCE.name} sha256 {source_sha256()[:16]}…")
    return 0


if __name__ == "__main__":
    sys.exit(main())
