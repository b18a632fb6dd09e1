"""`gradlint rules`, `gradlint rule`, the delegated `gradcheck`/`lsp`, what `check` imports,
and the pre-commit hook definitions."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def test_rules_lists_every_rule(project):
    res = project.run("rules")
    assert res.returncode == 0
    rows = {line.split()[0]: line for line in res.lines if line.startswith("GL")}
    assert {"GL001", "GL002", "GL003", "GL991", "GL992", "GL993"} <= set(rows)
    assert "[*]" in rows["GL991"] and "forbidden-call" in rows["GL991"] and "error" in rows["GL991"]
    assert "(*)" in rows["GL992"] and "[*]" not in rows["GL993"]
    data = json.loads(project.run("rules", "--output-format", "json").stdout)
    by_code = {r["code"]: r for r in data}
    assert by_code["GL991"]["fix"] == "safe" and by_code["GL993"]["severity"] == "info"
    assert by_code["GL001"]["url"].endswith("GL001.md")


def test_rule_prints_its_page(project):
    res = project.run("rule", "GL991")
    assert res.returncode == 0
    assert res.stdout.startswith("# GL991 `forbidden-call`")
    assert "Fix: safe" in res.stdout
    assert project.run("rule", "gl001").stdout.startswith("# GL001 `syntax-error`")
    assert project.run("rule", "forbidden-call").stdout.startswith("# GL991")  # by name too
    page = json.loads(project.run("rule", "GL991", "--output-format", "json").stdout)["page"]
    assert page.startswith("# GL991")


def test_unknown_rule_is_one_line(project):
    res = project.run("rule", "GL000")
    assert res.returncode == 2 and res.stdout == ""
    assert res.stderr == "gradlint: error: unknown rule 'GL000' (see `gradlint rules`)\n"


@pytest.mark.parametrize("command", ["gradcheck", "lsp"])
def test_delegated_commands(project, command):
    """Either the owning module parses its arguments (--help: 0), or a clear line and 2."""
    res = project.run(command, "--help", plugin=False)
    if res.returncode == 2:
        assert "not available" in res.stderr and "Traceback" not in res.stderr
    else:
        assert res.returncode == 0, res.stderr
        assert f"gradlint {command}" in res.stdout


def test_check_imports_no_framework_and_no_front_end(project):
    project.write("a.py", "x = 1\n")
    code = (
        "import sys\nfrom gradlint.cli import main\n"
        "rc = main(['check', '--no-cache', '--jobs', '1', '--output-format', 'sarif'])\n"
        "bad = [m for m in ('torch', 'tensorflow', 'jax', 'numpy', 'gradlint.dynamic', 'gradlint_server', 'pygls') if m in sys.modules]\n"
        "print(rc, bad, file=sys.stderr)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], cwd=project.root, capture_output=True, text=True, timeout=120)
    assert proc.stderr.strip().splitlines()[-1] == "0 []"


def test_pre_commit_hooks():
    yaml = pytest.importorskip("yaml")
    hooks = {h["id"]: h for h in yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text())}
    assert set(hooks) == {"gradlint", "gradlint-fix"}
    for hook in hooks.values():
        assert hook["language"] == "python"
        assert hook["entry"].startswith("gradlint check")
        assert "--force-exclude" in hook["entry"]  # pre-commit names files; exclusions still apply
        assert set(hook["types_or"]) == {"python", "pyi", "jupyter"}  # notebooks too, as ruff
        assert hook["require_serial"] is True  # gradlint runs its own worker processes
        assert not hook.get("additional_dependencies")  # the base install: no torch
    assert "--fix" in hooks["gradlint-fix"]["entry"] and "--fix" not in hooks["gradlint"]["entry"]


def test_missing_delegate_is_one_line(monkeypatch, capsys):
    from gradlint import cli

    monkeypatch.setitem(cli.DELEGATED, "lsp", ("gradlint_no_such_module.cli", "run the language server"))
    assert cli.main(["lsp", "--stdio"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "`gradlint lsp` is not available" in err


def test_every_package_is_installed():
    """setuptools installs the packages pyproject.toml lists, no others: a new subpackage
    missing there works in the repository and is absent from a wheel, pip install --target
    and the VS Code extension's bundled server."""
    import tomllib

    listed = set(tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {".".join(p.parent.relative_to(REPO).parts) for p in (REPO / "gradlint").rglob("__init__.py")}
    found |= {"gradlint_server." + ".".join(p.parent.relative_to(REPO / "server").parts) for p in (REPO / "server").rglob("*/__init__.py")}
    assert found - listed == set()
