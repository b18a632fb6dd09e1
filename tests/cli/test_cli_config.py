"""`[tool.gradlint]` and the command-line overrides: select, ignore, extend-select,
per-file-ignores, exclude/extend-exclude, --force-exclude, --config, and `# noqa`."""

from __future__ import annotations

import json

from cli_support import SAMPLE


def codes(res) -> list[tuple[str, str]]:
    """(relative file, code) of each finding in a json run."""
    out = []
    for d in json.loads(res.stdout):
        out.append((d["filename"].rsplit("/", 1)[-1], d["code"]))
    return out


def test_select_and_ignore_from_pyproject(project):
    project.pyproject('select = ["GL99"]\nignore = ["GL992"]\n')
    project.write("a.py")
    assert codes(project.check("--output-format", "json")) == [("a.py", "GL991"), ("a.py", "GL993")]


def test_command_line_overrides(project):
    project.pyproject('select = ["GL991"]\nignore = ["GL993"]\n')
    project.write("a.py")
    fmt = ("--output-format", "json")
    # --select starts from scratch: the configuration's ignore does not carry over (ruff).
    assert codes(project.check("--select", "GL993", *fmt)) == [("a.py", "GL993")]
    assert codes(project.check("--extend-select", "GL992", *fmt)) == [("a.py", "GL991"), ("a.py", "GL992")]
    assert codes(project.check("--select", "GL99", "--ignore", "GL991,GL992", *fmt)) == [("a.py", "GL993")]
    # repeated flags accumulate, codes are case-insensitive
    assert codes(project.check("--select", "gl991", "--select", "GL992", *fmt)) == [("a.py", "GL991"), ("a.py", "GL992")]


def test_per_file_ignores(project):
    project.pyproject('per-file-ignores = { "tests/**" = ["GL991"], "scripts/*.py" = ["GL99"] }\n')
    project.write("src/a.py")
    project.write("tests/unit/t.py")
    project.write("scripts/s.py")
    found = codes(project.check("--output-format", "json"))
    assert ("a.py", "GL991") in found
    assert ("t.py", "GL991") not in found and ("t.py", "GL992") in found
    assert not [c for c in found if c[0] == "s.py"]


def test_exclude_and_extend_exclude(project):
    project.pyproject('extend-exclude = ["generated", "*_pb2.py"]\n')
    project.write("src/a.py")
    project.write("generated/g.py")
    project.write("src/x_pb2.py")
    project.write("build/b.py")  # `build` is not a default exclude (`_build` is)
    files = project.check("--show-files").lines
    assert "src/a.py" in files and "build/b.py" in files
    assert "generated/g.py" not in files and "src/x_pb2.py" not in files
    # a file named explicitly is checked anyway, unless --force-exclude
    assert project.check("generated/g.py").returncode == 1
    res = project.check("generated/g.py", "--force-exclude")
    assert (res.returncode, res.stdout) == (0, "All checks passed!\n")
    # a directory named explicitly is walked, but its excluded contents are not
    assert project.check("src", "--show-files").lines == ["src/a.py"]


def test_exclude_replaces_the_defaults(project):
    project.pyproject('exclude = ["only_this"]\n')
    project.write("venv/lib/v.py")  # `venv` is a default exclude, dropped by `exclude`
    project.write("only_this/o.py")
    files = project.check("--show-files").lines
    assert "venv/lib/v.py" in files and "only_this/o.py" not in files


def test_config_is_found_from_the_first_path(project):
    sub = project.root / "sub"
    project.write("sub/pyproject.toml", '[tool.gradlint]\nselect = ["GL993"]\n')
    project.write("sub/a.py")
    (project.root / "elsewhere").mkdir()
    res = project.check("../sub", "--output-format", "json", cwd=project.root / "elsewhere")
    assert codes(res) == [("a.py", "GL993")]
    # the cache goes to the project root found, not the working directory
    assert (sub / ".gradlint_cache").is_dir()
    assert not (project.root / "elsewhere" / ".gradlint_cache").exists()


def test_explicit_config(project):
    project.write("custom.toml", '[tool.gradlint]\nselect = ["GL992"]\n')
    project.write("a.py")
    assert codes(project.check("--config", "custom.toml", "--output-format", "json")) == [("a.py", "GL992")]


def test_noqa(project):
    project.write(
        "a.py",
        "import torch\nloss = forbidden(1)  # noqa: GL991\nshaky(2)  # noqa\nnote_me(3)  # noqa: GL991\nloss.backward()\n",
    )
    assert codes(project.check("--output-format", "json")) == [("a.py", "GL993")]
    project.write("b.py", "# gradlint: noqa\n" + SAMPLE)
    assert [c for c in codes(project.check("--output-format", "json")) if c[0] == "b.py"] == []
