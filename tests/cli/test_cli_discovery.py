"""File discovery: .gitignore, virtualenvs, hidden directories, symlink loops, exclusions."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from gradlint.config import DEFAULT_EXCLUDE, Config
from gradlint.files import Excluder, discover


def make(root: Path, *rels: str) -> None:
    for rel in rels:
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text("x = 1\n")


def found(root: Path, config: Config | None = None, paths=None) -> list[str]:
    config = config or Config(root=root)
    res = discover(paths or [str(root)], config)
    return [os.path.relpath(f, root) for f in res.files]


def test_walk_skips_what_it_should(tmp_path):
    make(
        tmp_path,
        "a.py", "stubs/s.pyi", "notes.txt", "nb.ipynb",
        ".hidden/h.py", "pkg/__pycache__/c.py", "node_modules/n.py",
        "env/pyvenv.cfg", "env/lib/site.py",  # a virtualenv under any name
        "pkg/m.py", ".hidden/h.ipynb", "node_modules/n.ipynb",
    )
    assert found(tmp_path) == ["a.py", "nb.ipynb", "pkg/m.py", "stubs/s.pyi"]


def test_walk_honours_gitignore_files(tmp_path):
    (tmp_path / ".git" / "info").mkdir(parents=True)
    (tmp_path / ".git" / "info" / "exclude").write_text("private.py\n")
    (tmp_path / ".gitignore").write_text("gen/\n*_tmp.py\n")
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / ".gitignore").write_text("!keep_tmp.py\n")
    make(tmp_path, "a.py", "private.py", "gen/g.py", "x_tmp.py", "pkg/keep_tmp.py", "pkg/drop_tmp.py")
    assert found(tmp_path) == ["a.py", "pkg/keep_tmp.py"]
    # parent .gitignore files up to the repository root apply when walking a subdirectory
    assert found(tmp_path, paths=[str(tmp_path / "pkg")]) == ["pkg/keep_tmp.py"]
    # respect-gitignore = false
    everything = found(tmp_path, Config(root=tmp_path, respect_gitignore=False))
    assert "gen/g.py" in everything and "private.py" in everything


def test_explicit_paths(tmp_path):
    make(tmp_path, ".hidden/h.py", "notes.txt", "a.py")
    named = [tmp_path / ".hidden", tmp_path / "notes.txt", tmp_path / "a.py", tmp_path / "a.py"]
    res = discover([str(p) for p in named], Config(root=tmp_path))
    assert [os.path.relpath(f, tmp_path) for f in res.files] == [".hidden/h.py", "a.py", "notes.txt"]


def test_notebooks_are_found_like_python_files(tmp_path):
    (tmp_path / ".git").mkdir()
    (tmp_path / ".gitignore").write_text("scratch/\n*.tmp.ipynb\n")
    make(tmp_path, "nb.ipynb", "scratch/s.ipynb", "x.tmp.ipynb", "gen/g.ipynb", "sub/keep.ipynb")
    assert found(tmp_path, Config(root=tmp_path, extend_exclude=["gen"])) == ["nb.ipynb", "sub/keep.ipynb"]
    # named on the command line: checked (exclusions apply only with --force-exclude)
    res = discover([str(tmp_path / "x.tmp.ipynb")], Config(root=tmp_path))
    assert [os.path.relpath(f, tmp_path) for f in res.files] == ["x.tmp.ipynb"] and not res.warnings


def test_symlink_loops_terminate(tmp_path):
    make(tmp_path, "pkg/a.py")
    os.symlink(tmp_path, tmp_path / "pkg" / "loop")
    os.symlink(tmp_path / "pkg", tmp_path / "alias")
    files = found(tmp_path)
    # each directory is entered once, whichever path reaches it first
    assert len(files) == 1 and files[0] in ("pkg/a.py", "alias/a.py")


@pytest.mark.parametrize(
    "patterns",
    [list(DEFAULT_EXCLUDE), ["*_pb2.py", "gen*", "[ab].py"], ["src/gen", "**/fixtures/*.py", "tests/data/**"]],
)
def test_excluder_agrees_with_config(tmp_path, patterns):
    """The walk's fast matcher must decide exactly like Config.is_excluded."""
    config = Config(root=tmp_path, exclude=patterns)
    fast = Excluder(config)
    rels = [
        "a.py", "venv", "x/.venv", "x/node_modules/y.py", "m_pb2.py", "deep/m_pb2.py", "generated",
        "gen/x.py", "a.py", "b.py", "c.py", "src/gen", "src/gen/x.py", "x/fixtures/f.py",
        "fixtures/f.py", "tests/data/d/e.py", "tests/datas.py", "__pycache__", "site-packages",
    ]
    outside = Path(str(tmp_path) + "_elsewhere")
    for base in (tmp_path, outside):
        for rel in rels:
            path = str(base / rel)
            assert fast(path) == config.is_excluded(Path(path)), (base, rel)


def test_show_files(project):
    project.write("b.py")
    project.write("a/z.py")
    project.write(".venv/lib/x.py")
    assert project.check("--show-files").lines == ["a/z.py", "b.py"]


def test_check_paths_api(tmp_path, monkeypatch):
    """The library entry point: diagnostics back, no cache directory left behind."""
    import gradlint

    monkeypatch.chdir(tmp_path)
    (tmp_path / "bad.py").write_bytes(b"x = '\xff'\n")
    make(tmp_path, "ok.py")
    diags = gradlint.check_paths([str(tmp_path), str(tmp_path / "missing.py")], Config(root=tmp_path))
    assert [(os.path.basename(d.path), d.code) for d in diags] == [("bad.py", "GL003"), ("missing.py", "GL003")]
    assert not (tmp_path / ".gradlint_cache").exists()
