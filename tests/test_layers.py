"""The layers of the code base: no import cycle among the project's modules, a cheap
`import gradlint.cli`, and no oversized module without a stated reason.

The cycle check reads every import the way a reader (or a type checker) would: top-level
imports, imports inside functions (deferred, but still a dependency) and imports under
`if TYPE_CHECKING:`. A cycle among them means two modules that cannot be understood, tested
or loaded one without the other.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# source directory -> import name (server/ is installed as gradlint_server)
PACKAGES = {"gradlint": "gradlint", "server": "gradlint_server"}
MAX_LINES = 800


def _modules() -> dict[str, Path]:
    out = {}
    for folder, name in PACKAGES.items():
        base = ROOT / folder
        for path in sorted(base.rglob("*.py")):
            rel = path.relative_to(base).with_suffix("")
            parts = [name, *rel.parts]
            if parts[-1] == "__init__":
                parts = parts[:-1]
            out[".".join(parts)] = path
    return out


def _resolve(module: str, is_package: bool, level: int, target: str | None) -> str:
    if level == 0:
        return target or ""
    base = module.split(".")
    if not is_package:
        base = base[:-1]
    if level > 1:
        base = base[: len(base) - (level - 1)]
    return ".".join(base + ([target] if target else []))


def import_graph() -> dict[str, set[str]]:
    mods = _modules()
    graph: dict[str, set[str]] = {m: set() for m in mods}
    for mod, path in mods.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        is_pkg = path.name == "__init__.py"
        for node in ast.walk(tree):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = _resolve(mod, is_pkg, node.level, node.module)
                # `from . import x` imports the submodule x when there is one
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in mods else base for a in node.names]
            for t in targets:
                # the deepest project module the import names (`gradlint.a.b` -> itself or a parent)
                while t and t not in mods:
                    t = t.rpartition(".")[0]
                if t and t != mod:
                    graph[mod].add(t)
    return graph


def find_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    counter = [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_no_import_cycles():
    graph = import_graph()
    cycles = find_cycles(graph)
    detail = []
    for comp in cycles:
        members = set(comp)
        edges = sorted(f"{a} -> {b}" for a in comp for b in graph[a] if b in members)
        detail.append("\n  ".join([", ".join(comp)] + edges))
    assert not cycles, "import cycles:\n" + "\n".join(detail)


def test_the_cycle_finder_finds_cycles():
    # the check above must be able to fail
    assert find_cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert find_cycles({"a": {"b"}, "b": set()}) == []


def test_the_graph_sees_deferred_and_type_checking_imports():
    graph = import_graph()
    # a function-level import (engine.fix_source_full imports source.apply_edits inside)
    assert "gradlint.source" in graph["gradlint.engine"]
    assert "gradlint.prefilter" in graph["gradlint.engine"]


def test_cli_import_does_not_load_libcst():
    """`gradlint --version`, `gradlint gradcheck` and `gradlint lsp` must not pay for the
    static engine (libcst, the interpreter) before they need it."""
    proc = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", "import gradlint.cli"],
        capture_output=True, text=True, cwd=ROOT, check=True,
    )
    loaded = [line.rsplit("|", 1)[-1].strip() for line in proc.stderr.splitlines() if "|" in line]
    assert "gradlint.cli" in loaded  # the measurement works
    heavy = [m for m in loaded if m.split(".")[0] == "libcst" or m in ("gradlint.engine", "gradlint.analysis")]
    assert not heavy, f"`import gradlint.cli` loads {heavy[:5]}"


def test_server_main_process_does_not_load_the_engine():
    """The language server's event loop only forwards text to the lint process: it must not
    import the static engine (libcst holds the GIL for whole parses)."""
    proc = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", "import gradlint_server.app, gradlint_server.handlers"],
        capture_output=True, text=True, cwd=ROOT, check=True,
    )
    loaded = [line.rsplit("|", 1)[-1].strip() for line in proc.stderr.splitlines() if "|" in line]
    assert "gradlint_server.app" in loaded
    heavy = [m for m in loaded if m.split(".")[0] == "libcst" or m == "gradlint.engine"]
    assert not heavy, f"the server's main process loads {heavy[:5]}"


@pytest.mark.parametrize("path", sorted(_modules().values()), ids=lambda p: str(p.relative_to(ROOT)))
def test_modules_are_small_or_say_why(path):
    lines = path.read_text(encoding="utf-8").count("\n")
    if lines <= MAX_LINES:
        return
    head = path.read_text(encoding="utf-8")[:3000]
    assert "Why this module is long" in head, (
        f"{path.relative_to(ROOT)} has {lines} lines (> {MAX_LINES}): split it by job, or say at its top "
        f"(\"Why this module is long: ...\") why one file is the right unit"
    )


def test_the_cache_key_sees_every_module_of_the_analysis(monkeypatch):
    """The results cache is keyed on the modules that decide the results; a change in a
    subpackage (an overlay, the interpreter) must give a fresh cache."""
    import os

    from gradlint import cache

    before = cache._code_fingerprint()
    overlay = str(ROOT / "gradlint" / "analysis" / "frameworks" / "torch.py")
    real_stat = os.stat

    def stat(path, *a, **kw):
        st = real_stat(path, *a, **kw)
        if os.path.abspath(path) == overlay:
            return os.stat_result((st.st_mode, st.st_ino, st.st_dev, st.st_nlink, st.st_uid, st.st_gid, st.st_size + 1,
                                   int(st.st_atime), int(st.st_mtime), int(st.st_ctime)))
        return st

    monkeypatch.setattr(os, "stat", stat)
    assert cache._code_fingerprint() != before


def test_every_package_is_installed():
    """pyproject lists the packages explicitly: a new subpackage left out works in an editable
    install and is missing from a wheel (pre-commit, the VS Code bundle)."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover
        import tomli as tomllib
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["packages"])
    on_disk = {
        ".".join(p.parent.relative_to(ROOT).parts)
        for p in (ROOT / "gradlint").rglob("__init__.py")
    }
    assert on_disk <= listed, sorted(on_disk - listed)
