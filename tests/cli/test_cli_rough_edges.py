"""Inputs that used to get the wrong message (the attack report's #18-#21): each now gets a
GL00x finding or one clear configuration line, never "internal error ... this is a bug"."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest
from cli_support import RUNNER, SAMPLE, Result, clean_env
from test_cli_exit_codes import assert_one_line_error

from gradlint.engine import check_source


def run_without_privileges(*args: str, cwd) -> Result:
    """`gradlint` as a process that file modes apply to: root reads everything, so as root the
    run drops CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH (what the attack scripts do)."""
    prefix: list[str] = []
    if os.geteuid() == 0:
        setpriv = shutil.which("setpriv")
        if setpriv is None:
            pytest.skip("running as root without setpriv: file modes cannot be tested")
        caps = "-dac_override,-dac_read_search"
        prefix = [setpriv, f"--bounding-set={caps}", f"--inh-caps={caps}"]
    proc = subprocess.run(
        [*prefix, sys.executable, str(RUNNER), *args], cwd=cwd, capture_output=True, env=clean_env(), timeout=120
    )
    return Result(proc.returncode, proc.stdout.decode(), proc.stderr.decode())


# ---------------------------------------------------------------------- paths on the command line
def test_a_symlink_loop_named_on_the_command_line_is_gl003(project):
    os.symlink(project.root / "b.py", project.root / "a.py")
    os.symlink(project.root / "a.py", project.root / "b.py")
    project.write("good.py")
    res = project.check("--output-format", "concise", "a.py", "good.py")
    assert res.returncode == 1 and "internal error" not in res.stderr, res
    assert res.lines[0] == "a.py:1:1: GL003 cannot read file: a symlink loop (too many levels of symbolic links)"
    assert any(line.startswith("good.py:2:8: GL991") for line in res.lines)


def test_an_unreadable_directory_named_on_the_command_line_is_gl003(project):
    project.write("sub/a.py")
    project.write("other/b.py")
    os.chmod(project.root / "sub", 0)
    try:
        res = run_without_privileges("check", "--no-cache", "--output-format", "concise", "sub", "other", cwd=project.root)
        named_file = run_without_privileges("check", "--no-cache", "--output-format", "concise", "sub/a.py", cwd=project.root)
    finally:
        os.chmod(project.root / "sub", 0o755)
    assert res.returncode == 1 and "internal error" not in res.stderr, res
    assert "sub:1:1: GL003 cannot read directory: Permission denied" in res.lines
    assert any(line.startswith("other/b.py:2:8: GL991") for line in res.lines)
    assert named_file.lines[0] == "sub/a.py:1:1: GL003 cannot read file: Permission denied"


def test_fix_on_a_read_only_file_fixes_nothing_and_says_so(project):
    path = project.write("a.py")
    os.chmod(path, 0o444)
    os.chmod(project.root, 0o555)  # no temporary file beside it either
    try:
        res = run_without_privileges("check", "--no-cache", "--fix", "--output-format", "concise", "a.py", cwd=project.root)
    finally:
        os.chmod(project.root, 0o755)
        os.chmod(path, 0o644)
    assert path.read_text() == SAMPLE
    assert res.lines[0] == "a.py:1:1: GL003 cannot write fixes: Permission denied"
    assert "a.py:2:8: GL991 [*] `forbidden()` is forbidden" in res.lines  # still there
    assert "Found 4 errors." in res.lines and not [line for line in res.lines if "fixed" in line]


# ---------------------------------------------------------------------- source files
def test_a_nul_byte_is_gl001_with_cpythons_wording(project):
    project.write("a.py", "import torch\nx = 1\x00\ny = 2\n")  # no differentiation evidence
    res = project.check("--output-format", "concise")
    assert res.returncode == 1
    assert res.lines[0] == "a.py:2:6: GL001 SyntaxError: source code cannot contain null bytes"
    with pytest.raises(SyntaxError, match="null bytes"):
        compile((project.root / "a.py").read_bytes(), "a.py", "exec")
    # the language server's path (always_parse) says the same
    (d,) = check_source("x = '\x00'\n", "b.py", always_parse=True)
    assert (d.code, d.start.line, d.start.column) == ("GL001", 1, 5)


# ---------------------------------------------------------------------- configuration
@pytest.mark.parametrize(
    ("setting", "fragments"),
    [
        ("ignore = 'GL3'", ["ignore must be a list of rule codes", "found str 'GL3'"]),
        ("select = 'GL3'", ["select must be a list of rule codes"]),
        ("extend-select = [[]]", ["extend-select must be a list of rule codes", "found list [] in the list"]),
        ("extend-exclude = 'x'", ["extend-exclude must be a list of path globs", "found str 'x'"]),
        ("exclude = [5]", ["exclude must be a list of path globs", "found int 5 in the list"]),
        ("per-file-ignores = { 'a.py' = 'GL3' }", ["per-file-ignores.'a.py' must be a list of rule codes"]),
        ("per-file-ignores = { 'a.py' = [5] }", ["per-file-ignores.'a.py' must be a list of rule codes"]),
        ("per-file-ignores = ['x']", ["per-file-ignores must be a table of glob = [rule codes]"]),
        ("respect-gitignore = 'no'", ["respect-gitignore must be true or false", "found str 'no'"]),
        ("cache-dir = 5", ["cache-dir must be a directory path", "found int 5"]),
        ("cache-dir = ''", ["cache-dir must be a directory path"]),
        ("docs-url = 5", ["docs-url must be a URL template"]),
        ("gradcheck = 5", ["gradcheck must be a table with only `inputs`"]),
        ("gradcheck = { inputs = { f = 5 } }", ["inputs must be a table of target"]),
    ],
)
def test_wrong_types_in_the_configuration_are_one_line(project, setting, fragments):
    project.pyproject(setting + "\n")
    project.write("a.py")
    res = project.check()
    assert_one_line_error(res, "pyproject.toml", *fragments)
    assert "internal error" not in res.stderr
    # the cache never hides it
    assert project.check().returncode == 2


def test_tool_that_is_not_a_table_is_one_line(project):
    project.write("pyproject.toml", "tool = 5\n")
    project.write("a.py")
    assert_one_line_error(project.check(), "pyproject.toml", "`tool` must be a table")


def test_a_directory_named_pyproject_toml_is_looked_past(project):
    """Decided: as in ruff, only a regular file is a configuration file (a directory of that
    name is no configuration to report on); the search goes on upwards."""
    project.pyproject('select = ["GL993"]\n')
    (project.root / "sub" / "pyproject.toml").mkdir(parents=True)
    project.write("sub/a.py")
    res = project.check("--output-format", "concise", "sub/a.py")
    assert res.lines[0] == "sub/a.py:4:1: GL993 `note_me()` is worth a note" and len(res.lines) == 2
