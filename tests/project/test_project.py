"""Project-wide analysis (gradlint/project/): multi-file fixture projects under fixtures/.

Each fixture is a small project; a line with a pitfall ends with `# [GLxxx]` and must be
reported exactly there (at its own file and line), by checking the project's paths
(`paths.txt`, default `.`); every other line, the look-alikes included, must stay silent.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from gradlint.engine import check_source
from gradlint.files import check_bytes_bounded, run_paths
from gradlint.project import ProjectModules, search_roots
from gradlint.project.loader import MAX_MODULES
from gradlint.project.resolve import absolute, find_module, module_name

FIXTURES = Path(__file__).parent / "fixtures"
PROJECTS = sorted(p.name for p in FIXTURES.iterdir() if p.is_dir())
MARKER = re.compile(r"#\s*\[(GL\d{3}(?:\s*,\s*GL\d{3})*)\]")


def _given(project: Path) -> list[Path]:
    listed = project / "paths.txt"
    names = listed.read_text().split() if listed.exists() else ["."]
    return [project / n for n in names]


def _expected(project: Path) -> set[tuple[str, int, str]]:
    out = set()
    for given in _given(project):
        files = [given] if given.is_file() else sorted(given.rglob("*.py"))
        for f in files:
            for i, line in enumerate(f.read_text().splitlines(), 1):
                m = MARKER.search(line)
                if m:
                    for code in m.group(1).split(","):
                        out.add((f.relative_to(project).as_posix(), i, code.strip()))
    return out


def _reported(project: Path, paths: list[Path]) -> set[tuple[str, int, str]]:
    res = run_paths([str(p) for p in paths], file_timeout=0, jobs=1, project=True)
    return {(Path(d.path).relative_to(project).as_posix(), d.start.line, d.code) for d in res.diagnostics}


@pytest.mark.parametrize("name", PROJECTS)
def test_each_pitfall_at_its_own_file_and_line(name):
    project = FIXTURES / name
    expected = _expected(project)
    assert expected, "a fixture project without a pitfall tests nothing"
    assert _reported(project, _given(project)) == expected


@pytest.mark.parametrize("name", PROJECTS)
def test_fast_path_equals_exhaustive(name):
    project = FIXTURES / name
    for f in sorted(project.rglob("*.py")):
        text = f.read_text()
        fast = check_source(text, str(f), project=ProjectModules(str(f)))
        full = check_source(text, str(f), project=ProjectModules(str(f)), exhaustive=True)
        assert [(d.path, d.start, d.code) for d in fast] == [(d.path, d.start, d.code) for d in full], f


def test_message_names_the_differentiation_site():
    project = FIXTURES / "flat"
    [d] = run_paths([str(project)], file_timeout=0, jobs=1, project=True).diagnostics
    assert d.path == str(project / "losses.py")
    assert "differentiated at trainer/loop.py:8" in d.message


def test_a_module_outside_the_given_paths_is_read_not_reported():
    project = FIXTURES / "outside"
    assert _reported(project, [project / "app"]) == {("app/train.py", 15, "GL302")}
    # the same module, given, is reported: it was read and its pitfall found from app/train.py
    assert _reported(project, [project]) == {("app/train.py", 15, "GL302"), ("common/losses.py", 6, "GL101")}


def test_found_once_when_both_files_are_given():
    project = FIXTURES / "flat"
    res = run_paths([str(project / "losses.py"), str(project / "trainer" / "loop.py")], file_timeout=0, jobs=1, project=True)
    assert [(Path(d.path).name, d.start.line, d.code) for d in res.diagnostics] == [("losses.py", 6, "GL101")]


def test_single_file_analysis_is_unchanged_without_a_project():
    loop = FIXTURES / "flat" / "trainer" / "loop.py"
    assert check_source(loop.read_text(), str(loop)) == []


def test_stdin_filename_is_analysed_in_its_project():
    train = FIXTURES / "zero_grad" / "train.py"
    res = check_bytes_bounded(train.read_bytes(), str(train), _config(), name="train.py", file_timeout=0, project=True)
    assert [(d.start.line, d.code) for d in res.diagnostics] == [(10, "GL302")]
    # a pitfall the buffer reaches in another module belongs to that module's report
    loop = FIXTURES / "flat" / "trainer" / "loop.py"
    res = check_bytes_bounded(loop.read_bytes(), str(loop), _config(), name="loop.py", file_timeout=0, project=True)
    assert res.diagnostics == []


def _config():
    from gradlint.config import Config

    return Config()


def test_cache_entry_depends_on_the_modules_read(tmp_path):
    project = tmp_path / "flat"
    shutil.copytree(FIXTURES / "flat", project)
    cache_dir = tmp_path / "cache"
    from gradlint.config import load_config

    config = load_config(project)
    config.cache_dir = cache_dir

    def check():
        return run_paths([str(project)], config, use_cache=True, file_timeout=0, jobs=1, project=True)

    assert len(check().diagnostics) == 1
    warm = check()
    assert len(warm.diagnostics) == 1 and warm.checked == 0
    losses = project / "losses.py"
    losses.write_text(losses.read_text().replace(".detach().cpu().numpy()", "").replace("torch.tensor(np.where", "(torch.where"))
    st = os.stat(losses)
    os.utime(losses, ns=(st.st_atime_ns, st.st_mtime_ns + 5_000_000_000))
    after = check()
    assert after.diagnostics == [] and after.checked >= 1


def test_import_chain_beyond_the_bound_is_unknown_not_a_finding(tmp_path):
    (tmp_path / "pyproject.toml").write_text("")
    depth = MAX_MODULES + 10  # more modules than one check reads
    for i in range(depth):
        (tmp_path / f"m{i}.py").write_text(f"from m{i + 1} import f\n")
    (tmp_path / f"m{depth}.py").write_text("import torch\n\ndef f(t):\n    return torch.tensor(t.item())\n")
    (tmp_path / "train.py").write_text(
        "from m0 import f\n\ndef fit(model, opt, x):\n    opt.zero_grad()\n    f(model(x)).backward()\n    opt.step()\n"
    )
    res = run_paths([str(tmp_path)], file_timeout=0, jobs=1, project=True)
    assert res.diagnostics == []


def test_roots_and_names(tmp_path):
    (tmp_path / "pyproject.toml").write_text("")
    pkg = tmp_path / "src" / "lib" / "sub"
    pkg.mkdir(parents=True)
    (tmp_path / "src" / "lib" / "__init__.py").write_text("")
    (pkg / "__init__.py").write_text("")
    (pkg / "mod.py").write_text("")
    roots = search_roots(str(pkg / "mod.py"))
    assert str(tmp_path / "src") in roots and str(tmp_path) in roots
    assert module_name(str(pkg / "mod.py"), roots) == "lib.sub.mod"
    assert module_name(str(pkg / "__init__.py"), roots) == "lib.sub"
    assert find_module("lib.sub", roots) == str(pkg / "__init__.py")
    assert find_module("lib.sub.mod", roots) == str(pkg / "mod.py")
    assert find_module("nothere", roots) is None
    assert absolute("x", 1, "lib.sub.mod", False) == "lib.sub.x"
    assert absolute("x", 2, "lib.sub.mod", False) == "lib.x"
    assert absolute(None, 1, "lib.sub", True) == "lib.sub"
    assert absolute("x", 4, "lib.sub.mod", False) is None


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(Path(__file__).parents[2]), os.environ.get("PYTHONPATH", "")]))
    return subprocess.run([sys.executable, "-m", "gradlint", "check", *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=120)


def test_project_mode_is_opt_in_and_the_two_modes_do_not_share_cache_entries(tmp_path):
    project = tmp_path / "flat"
    shutil.copytree(FIXTURES / "flat", project)
    on = _cli("--project", ".", cwd=project)
    assert "losses.py:6:" in on.stdout and "GL101" in on.stdout, on.stdout + on.stderr
    # the same files checked one by one (the default): nothing differentiates in losses.py
    # itself; and the project run's cache entry is not the single-file run's answer
    off = _cli(".", cwd=project)
    assert "GL101" not in off.stdout, off.stdout + off.stderr
    assert _cli("--no-project", ".", cwd=project).stdout == off.stdout
    again = _cli("--project", ".", cwd=project)
    assert again.stdout == on.stdout


def test_notebook_cells_importing_a_project_module():
    """A notebook's cells are checked in its project: the pitfall is reported in the module,
    and the message names the notebook's cell and line where the loss is differentiated."""
    project = FIXTURES / "notebook"
    [d] = run_paths([str(project)], file_timeout=0, jobs=1, project=True).diagnostics
    assert (Path(d.path).name, d.start.line, d.code, d.cell) == ("losses.py", 6, "GL101", None)
    assert "differentiated at train.ipynb:cell 3:6" in d.message, d.message
