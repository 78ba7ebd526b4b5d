"""What the static site is built from, pinned: Pyodide from the npm registry and the
wheels from PyPI, each with the hash the build checks (docs/site.md, "Build").

``tools/js/package.json`` pins the same Pyodide (its types check the workers); a test
keeps the two in step. To move to another release, change both and the digests here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final


@dataclass(frozen=True)
class Pin:
    """A file the build fetches, with the digest it must have: npm's ``dist.integrity``
    (``sha512-<base64>``) for Pyodide's tarball, PyPI's SHA-256 (hex) for a wheel."""

    url: str
    digest: str

    @property
    def file_name(self) -> str:
        return self.url.rsplit("/", 1)[-1]


PYODIDE_VERSION: Final = "314.0.7"
PYODIDE: Final = Pin(
    f"https://registry.npmjs.org/pyodide/-/pyodide-{PYODIDE_VERSION}.tgz",
    "sha512-0YvXxEhfEdpLfb/XkM2BFAeMROq0iMUX2bzzH9pOttyMcWkwq+HbE5uyuGD82LN7y2q+SNvi/6V5JEsOlD2R1A==")

#: What ``firstlast.web.app`` imports besides the standard library, for Pyodide's
#: Python (3.14, ``pyemscripten_2026_0_wasm32``): nothing of the terminal, the CLI or
#: the odds lab (dask, matplotlib).
WHEELS: Final = tuple(Pin(f"https://files.pythonhosted.org/packages/{path}", sha256) for path, sha256 in (
    ("88/2e/947cfe02def9371c07cd5bf5b6b61c829e9aecb9904db02a66cfafbc1eec/starlette-1.10.0-py3-none-any.whl",
     "478c0ab3b4ced6e82719849c118fa406f0278a3499c1a898cd15cd31bdc38ce4"),
    ("a9/16/7757fb84c819accc7d7e9af5291b261e4abb8627ee040f99e7d35ef2457a/anyio-4.16.0-py3-none-any.whl",
     "c66ae634e0b8228396b801741beb3294326d4b6102f7bba4041c0dfb58c29026"),
    ("58/a2/bb081bab032533a855d44de1d56f8e8426114ff1ba5d1f07a438a0a654f8/idna-3.20-py3-none-any.whl",
     "ab7ae7122974553370f0bdb919e1a960b2cd1bc1ef0276416d896db81c14582c"),
    ("49/d3/b8441a820a491ddfc024b0b0cf0393375b75ea13866d9c66727e54c2fc80/"
     "typing_extensions-4.16.0-py3-none-any.whl",
     "481caa481374e813c1b176ada14e97f1f67a4539ce9cfeb3f350d78d6370c2e8"),
    ("fa/33/67509d508c2ba46e7ddf00237259e4164dcebabc4650930bc432ccf57946/"
     "msgspec-0.23.0-cp314-cp314-pyemscripten_2026_0_wasm32.whl",
     "1836f50ad87e7c56600b648a1b75c3bbcce62835cb1f489435fc5fee8d068831"),
    ("c9/31/5f0ac2f1a1c67423c995c731a11cd4ad05d081a2be969d74f868bdb9cc70/markdown_it_py-4.3.0-py3-none-any.whl",
     "7aa1511a46c39138de78d9eba92ce47e63124d8003fc98b3a351909e04239efa"),
    ("b3/38/89ba8ad64ae25be8de66a6d463314cf1eb366222074cfda9ee839c56a4b4/mdurl-0.1.2-py3-none-any.whl",
     "84008a41e51615a49fc9966191ff91509e3c40b939176e643fd50a5c2196b8f8"),
    ("3b/e7/fc53dfd2f9469cce9be9c58385bdcdb5087e790c135c9dadd4cc8401bb3d/platformdirs-4.14.9-py3-none-any.whl",
     "d0d3a23e7ff282cfa94b77f5a22b81030dcb68ba0430f90c74f4bd8d090782ea"),
))
