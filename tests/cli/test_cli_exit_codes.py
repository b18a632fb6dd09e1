"""Exit codes (0 clean, 1 findings, 2 usage/configuration error), one clear line for every
error, never a traceback; GL001/GL002/GL003 keep the run going."""

from __future__ import annotations

import os

import pytest

from gradlint import cli

CLEAN = "import torch\nloss = allowed(1)\nloss.backward()\n"


def assert_one_line_error(res, *fragments: str) -> None:
    assert res.returncode == 2, res
    assert "Traceback" not in res.stderr
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1, res.stderr
    for f in fragments:
        assert f in lines[0], lines[0]


def test_clean_tree_exits_0(project):
    project.write("a.py", CLEAN)
    res = project.check()
    assert res.returncode == 0, res
    assert res.stdout == "All checks passed!\n"


def test_findings_exit_1_and_exit_zero_overrides(project):
    project.write("a.py")
    assert project.check().returncode == 1
    res = project.check("--exit-zero")
    assert res.returncode == 0
    assert "GL991" in res.stdout


def test_unknown_code_in_select_is_one_line(project):
    project.write("a.py")
    res = project.check("--select", "GL991,XYZ12")
    assert_one_line_error(res, "XYZ12", "--select")
    assert res.stdout == ""


@pytest.mark.parametrize("flag", ["--ignore", "--extend-select"])
def test_unknown_code_in_other_flags(project, flag):
    assert_one_line_error(project.check(flag, "GL9999"), "GL9999", flag)


def test_argparse_errors_exit_2(project):
    res = project.check("--output-format", "xml")
    assert res.returncode == 2
    assert "invalid choice" in res.stderr
    assert project.run("frobnicate").returncode == 2
    assert project.run().returncode == 2  # no command: help on stderr


def test_broken_pyproject_is_one_line(project):
    project.write("pyproject.toml", "[tool.gradlint\nselect = [")
    project.write("a.py")
    assert_one_line_error(project.check(), "pyproject.toml", "invalid TOML")


def test_bad_config_values_are_one_line(project):
    project.pyproject('select = ["GL991"]\nbogus-key = 1\n')
    assert_one_line_error(project.check(), "bogus-key")
    project.pyproject('select = ["NOPE"]\n')
    assert_one_line_error(project.check(), "NOPE")


def test_usage_errors(project):
    assert_one_line_error(project.check("-", "a.py"), "`-`")
    assert_one_line_error(project.check("--jobs", "0"), "--jobs")
    assert_one_line_error(project.check("--config", "missing.toml"), "missing.toml")


def test_syntax_error_is_gl001_and_run_goes_on(project):
    project.write("bad.py", "import torch\nloss = forbidden(1\nloss.backward()\n")
    project.write("good.py")
    res = project.check("--select", "GL001,GL991", "--output-format", "concise")
    assert res.returncode == 1
    bad = [line for line in res.lines if line.startswith("bad.py:")]
    assert len(bad) == 1 and bad[0].startswith("bad.py:2:17: GL001 SyntaxError"), bad
    assert any(line.startswith("good.py:2:8: GL991") for line in res.lines)


def test_rule_failure_is_gl002_and_other_findings_remain(project):
    project.write("a.py", "import torch\nexplode()\nloss = forbidden(1)\nloss.backward()\n")
    res = project.check("--output-format", "concise")
    assert res.returncode == 1
    gl002 = [line for line in res.lines if " GL002 " in line]
    assert len(gl002) == 1
    assert "GL994" in gl002[0] and "exploding-rule" in gl002[0] and "boom from the test rule" in gl002[0]
    assert any(" GL991 " in line for line in res.lines)


def test_undecodable_and_unreadable_files_are_gl003(project):
    (project.root / "latin.py").write_bytes(b"import torch\nx = '\xff'\n")
    os.symlink(project.root / "nowhere.py", project.root / "dangling.py")
    project.write("good.py")
    res = project.check("--output-format", "concise")
    assert res.returncode == 1
    by_file = {line.split(":", 1)[0]: line for line in res.lines if " GL003 " in line}
    assert by_file["latin.py"].endswith("cannot decode file: not valid utf-8 (byte 0xff on line 2)")
    assert "cannot read file: No such file or directory" in by_file["dangling.py"]
    assert any(line.startswith("good.py:2:8: GL991") for line in res.lines)


def test_missing_path_is_gl003(project):
    res = project.check("--output-format", "concise", "missing.py")
    assert res.returncode == 1
    assert res.lines[0].startswith("missing.py:1:1: GL003 no such file or directory")


def test_ignored_gl003_is_silent(project):
    (project.root / "latin.py").write_bytes(b"x = '\xff'\n")
    assert project.check("--ignore", "GL003").returncode == 0


def test_internal_error_is_one_line_and_exit_2(monkeypatch, capsys, tmp_path):
    import gradlint.files

    def broken(*a, **kw):
        raise KeyError("surprise")

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(gradlint.files, "run_paths", broken)
    monkeypatch.delenv("GRADLINT_DEBUG", raising=False)
    assert cli.main(["check", "--no-cache"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "internal error" in err and "bug in gradlint" in err and "KeyError" in err
    monkeypatch.setenv("GRADLINT_DEBUG", "1")
    assert cli.main(["check", "--no-cache"]) == 2
    assert "Traceback" in capsys.readouterr().err


def test_help_and_version_exit_0(project):
    assert project.run("--version").stdout.startswith("gradlint ")
    res = project.check("--help")
    assert res.returncode == 0 and "--stdin-filename" in res.stdout
