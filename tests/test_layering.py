"""The Python layering, read from the sources' imports (``ast``), every import counted
(inside functions and ``if TYPE_CHECKING:`` blocks too):

    engine  ->  store, i18n, odds  ->  play  ->  faces (web, tui; site over web; cli over all)

* the engine (rules and the game's vocabulary) imports nothing above it;
* the store, i18n and the odds import the engine (and ``runtime``), never play or a face;
* the play layer imports those, never a face;
* the faces import only the play layer, i18n and the engine (its vocabulary: cards,
  places, moves, variants, positions to draw), never the store or the odds: what they
  need of those comes through the play layer (``firstlast.play``: the store's handle,
  its records and errors; ``play.chance``/``play.story``: the odds). ``site`` is built
  on the web app; ``cli`` starts every face, and it is the odds' own face too
  (``firstlast odds``, ``autoplay`` with the fast forced line), so it may import them;
* ``runtime`` (what the runtime allows) and ``recordfile`` (reading a record file) are
  plain helpers below everything but the engine; the package's root holds its version.

The page's own layering (JavaScript modules) is checked in ``tests/web/test_static.py``.
Besides the imports: SQL is the store's alone (only ``store/`` runs a statement or
reaches a transaction's connection), and the only write transaction is the play layer's
group writer's (``play/writer.py``: one write path).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path
from typing import Final

import pytest

import firstlast

SRC: Final = Path(firstlast.__file__).parent
HELPERS: Final = {"firstlast", "runtime", "recordfile"}
FACE: Final = HELPERS | {"engine", "i18n", "play"}
#: What each part may import besides itself.
ALLOWED: Final[dict[str, frozenset[str]]] = {
    "firstlast": frozenset(),  # the root: the version
    "engine": frozenset({"firstlast"}),
    "runtime": frozenset({"firstlast"}),
    "recordfile": frozenset({"firstlast", "engine"}),
    "store": frozenset({"firstlast", "runtime", "engine"}),
    "i18n": frozenset({"firstlast", "runtime", "engine"}),
    "odds": frozenset({"firstlast", "runtime", "engine"}),
    "play": frozenset(HELPERS | {"engine", "store", "i18n", "odds"}),
    "web": frozenset(FACE),
    "tui": frozenset(FACE),
    "site": frozenset(FACE | {"web"}),
    "cli": frozenset(FACE | {"web", "tui", "site", "odds"}),
}


def module_name(path: Path, src: Path) -> str:
    parts = list(path.relative_to(src.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported(tree: ast.AST, module: str, is_package: bool, src: Path) -> Iterator[tuple[str, int]]:
    """Every module of the package (at ``src``) that ``tree`` (module ``module``)
    imports, absolute, with its line: ``import a.b``, ``from a import b`` (``a.b`` when
    ``b`` is a module), relative imports resolved."""
    package = module if is_package else module.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            for alias in node.names:
                inner = f"{target}.{alias.name}"
                where = src.parent.joinpath(*inner.split("."))
                is_module = where.is_dir() or where.with_suffix(".py").is_file()
                yield (inner if is_module else target), node.lineno


def part(module: str) -> str:
    """The layer ``module`` belongs to: ``firstlast.web.routes.games`` -> ``web``."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def violations(src: Path = SRC) -> list[str]:
    """Every import under ``src`` (the ``firstlast`` package) that the layering forbids,
    as ``path:line: part imports module``."""
    found = []
    for path in sorted(src.rglob("*.py")):
        module = module_name(path, src)
        here = part(module)
        allowed = ALLOWED.get(here)
        if allowed is None:
            found.append(f"{path.relative_to(src.parent)}: {here} is not placed in the layering (ALLOWED)")
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for target, line in imported(tree, module, path.name == "__init__.py", src):
            if target != "firstlast" and not target.startswith("firstlast."):
                continue  # the standard library, a dependency
            there = part(target)
            if there != here and there not in allowed:
                found.append(f"{path.relative_to(src.parent)}:{line}: {here} imports {target}")
    return list(dict.fromkeys(found))  # one line per import, however many names it takes


def test_every_import_follows_the_layering() -> None:
    found = violations()
    assert not found, ("imports against the layering (a face reaches the store or the odds through "
                       "firstlast.play; nothing imports upwards):\n" + "\n".join(found))


def test_the_checker_finds_a_planted_violation(tmp_path: Path) -> None:
    # A copy of a few of the package's modules with one bad import of each kind added:
    # each is found, with its line, and the untouched copies are clean.
    src = tmp_path / "firstlast"
    for name in ("__init__.py", "runtime.py", "engine/__init__.py", "web/__init__.py", "play/__init__.py",
                 "store/__init__.py", "tui/__init__.py", "cli/__init__.py"):
        (src / name).parent.mkdir(parents=True, exist_ok=True)
        (src / name).write_text((SRC / name).read_text(encoding="utf-8"), encoding="utf-8")
    assert violations(src) == []
    (src / "web" / "bad.py").write_text("import json\nfrom ..store import GameStore\n")
    (src / "tui" / "worse.py").write_text("def f() -> None:\n    from firstlast.odds import live\n")
    (src / "engine" / "up.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                                          "    from ..play import PlayService\n")
    (src / "store/__init__.py").write_text((SRC / "store/__init__.py").read_text(encoding="utf-8")
                                           + "\nfrom .. import play\n")
    (src / "cli" / "fine.py").write_text("from ..odds import runner\nfrom ..web import server\nfrom . import x\n")
    (src / "newpart").mkdir()
    (src / "newpart" / "__init__.py").write_text("")
    found = violations(src)
    lines = (SRC / "store/__init__.py").read_text(encoding="utf-8").count("\n") + 2
    assert found == [
        "firstlast/engine/up.py:3: engine imports firstlast.play",
        "firstlast/newpart/__init__.py: newpart is not placed in the layering (ALLOWED)",
        f"firstlast/store/__init__.py:{lines}: store imports firstlast.play",
        "firstlast/tui/worse.py:2: tui imports firstlast.odds",
        "firstlast/web/bad.py:2: web imports firstlast.store",
    ], found


def calls(tree: ast.AST, names: set[str]) -> Iterator[tuple[str, int]]:
    """Calls of a method named in ``names`` (``x.execute(...)``), and reads of a ``.db``."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in names:
            yield node.func.attr, node.lineno
        elif isinstance(node, ast.Attribute) and node.attr == "db" and "db" in names:
            yield "db", node.lineno


#: The store's modules (``firstlast/store/``): SQL is theirs alone.
STORE: Final = {f"store/{path.name}" for path in (SRC / "store").glob("*.py")}


@pytest.mark.parametrize(("what", "names", "only", "planted"), [
    ("SQL", {"execute", "executemany", "executescript", "db"}, STORE, "tx.db.execute('SAVEPOINT job')"),
    ("a write transaction", {"transaction"}, STORE | {"play/writer.py"}, "with store.transaction() as tx: pass"),
])
def test_sql_is_the_stores_and_the_writer_opens_the_write_transactions(what: str, names: set[str], only: set[str],
                                                                       planted: str) -> None:
    assert list(calls(ast.parse(planted), names))  # the check finds one where there is one
    found = []
    for path in sorted(SRC.rglob("*.py")):
        rel = path.relative_to(SRC).as_posix()
        if rel in only:
            continue
        for name, line in calls(ast.parse(path.read_text(encoding="utf-8")), names):
            found.append(f"{rel}:{line}: .{name}")
    assert not found, f"{what} outside {', '.join(sorted(only))}:\n" + "\n".join(found)


def test_no_private_uvicorn_and_no_interpreter_internals() -> None:
    """Issue 25.1: the server is uvicorn's documented ``Config``/``Server``, not a subclass
    of its private protocol; nothing reaches into the interpreter (``ctypes.pythonapi``)."""
    found = []
    for path in sorted(SRC.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        tree = ast.parse(text)
        module = module_name(path, SRC)
        for name, line in imported(tree, module, path.name == "__init__.py", SRC):
            if name.startswith(("uvicorn.protocols", "uvicorn.server", "uvicorn.lifespan", "uvicorn.loops")):
                found.append(f"{module}:{line} imports {name}")
        if "pythonapi" in text:
            found.append(f"{module} uses ctypes.pythonapi")
    assert found == []
