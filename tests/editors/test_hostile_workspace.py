"""Opening, linting or fixing a folder runs none of its code: a workspace whose every
importable file writes a marker (hostile_workspace.py) is served by `gradlint lsp`, by the VS
Code extension's launcher, and checked by `gradlint check`; no marker may appear. (The VS Code
extension itself is driven through the same folder in editors/vscode/test/extension.test.ts,
the pre-commit hook in test_precommit_hook.py.)"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import hostile_workspace
from editor_support import EDITORS, LspProcess

LAUNCHER = EDITORS / "vscode" / "launcher" / "start_server.py"
BUNDLE = EDITORS / "vscode" / "bundled" / "libs"
BIN = Path(sys.executable).parent


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    return hostile_workspace.make(tmp_path / "ws")


def _gradlint() -> str:
    exe = BIN / "gradlint"
    if not exe.exists():
        pytest.fail(f"no `gradlint` console script in {BIN} (pip install -e .)")
    return str(exe)


def _error(server: LspProcess, method: str, params: Any) -> dict:
    """Sends a request that must fail; returns its error."""
    server._id += 1
    rid = server._id
    server._send({"id": rid, "method": method, "params": params})
    msg = server.pump(lambda m: m.get("id") == rid and "method" not in m, 30)
    assert "error" in msg, f"{method} was accepted: {msg}"
    return msg["error"]


def _session(cmd: list[str], ws: Path, env: dict[str, str], init: Any) -> None:
    """An editor's session with dynamic checks off, and every way a client could try to turn
    them back on; asserts along the way, and that no marker appeared."""
    model = ws / "model.py"
    uri = model.as_uri()
    # the client answers workspace/configuration with checks on and a workspace interpreter
    config = {"gradlint": {"dynamicChecks": True, "interpreter": str(ws / "evil_python")}}
    server = LspProcess(cmd, env=env, cwd=ws, config=config)
    try:
        server.request("initialize", {
            "processId": os.getpid(), "rootUri": ws.as_uri(),
            "workspaceFolders": [{"uri": ws.as_uri(), "name": "ws"}],
            "initializationOptions": init,
            "capabilities": {"workspace": {"configuration": True, "workspaceFolders": True},
                             "textDocument": {"codeAction": {"codeActionLiteralSupport": {"codeActionKind": {"valueSet": ["", "quickfix", "source.fixAll"]}}}}},
        })
        server.notify("initialized", {})
        text = model.read_text(encoding="utf-8")
        server.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "python", "version": 1, "text": text}})
        msg = server.pump(lambda m: m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri
                          and m["params"]["diagnostics"], timeout=60)
        assert {d["code"] for d in msg["params"]["diagnostics"]} == {"GL205"}
        line = hostile_workspace.model_line("def f(x):")
        actions = server.request("textDocument/codeAction", {
            "textDocument": {"uri": uri}, "range": {"start": {"line": line, "character": 4}, "end": {"line": line, "character": 4}},
            "context": {"diagnostics": []}})
        assert not [a for a in actions or [] if a.get("command") and not a.get("disabled")], actions  # no runnable check
        fix_all = server.request("textDocument/codeAction", {
            "textDocument": {"uri": uri}, "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}},
            "context": {"diagnostics": [], "only": ["source.fixAll.gradlint"]}})
        assert fix_all and fix_all[0]["edit"]["changes"][uri], fix_all
        server.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2},
                                                 "contentChanges": [{"text": "# edited\n" + text}]})
        server.pump(lambda m: m.get("method") == "textDocument/publishDiagnostics" and m["params"].get("version") == 2, timeout=60)
        refused = {"verdict": "refused"}
        check = {"command": "gradlint.gradcheck", "arguments": [{"uri": uri, "target": "f", "inputs": "torch.randn(3)"}]}
        assert server.request("workspace/executeCommand", check).items() >= refused.items()
        server.notify("workspace/didChangeConfiguration", {"settings": config})
        assert server.request("workspace/executeCommand", check).items() >= refused.items()
        # LSP allows one initialize; a second must not bring new initializationOptions
        error = _error(server, "initialize", {"processId": None, "rootUri": ws.as_uri(), "capabilities": {},
                                              "initializationOptions": {"dynamicChecks": True}})
        assert error["code"] == -32600 and "already initialized" in error["message"]
        assert server.request("workspace/executeCommand", check).items() >= refused.items()
        assert server.close() == 0, server.stderr[-2000:]
    finally:
        if server.proc.poll() is None:
            server.proc.kill()
            server.proc.wait()
    assert hostile_workspace.markers(ws) == [], server.stderr[-3000:]


@pytest.mark.parametrize("init", [
    {"dynamicChecks": False},
    {"dynamicChecks": False, "gradlint": {"select": ["GL"]}},  # a flat false next to a section
    {"gradlint": {"dynamicChecks": "false"}},  # not literally true: off
], ids=["flat", "flat-beside-section", "string"])
def test_gradlint_lsp_in_the_workspace_runs_nothing(ws: Path, gradlint_env: dict[str, str], init: Any) -> None:
    _session([_gradlint(), "lsp"], ws, gradlint_env, init)


def test_vscode_launcher_runs_nothing_even_from_inside_the_workspace(ws: Path, gradlint_env: dict[str, str]) -> None:
    # The extension starts it in its own directory; here in the workspace, the worst case.
    _session([sys.executable, str(LAUNCHER), "lsp"], ws, gradlint_env, {"dynamicChecks": False})


def _other_pythons() -> list[str]:
    """The real executables of the python3.1x on PATH that run (pyenv shims may not), and of
    those listed in GRADLINT_TEST_PYTHONS (separated like PATH)."""
    found = []
    listed = [p for p in os.environ.get("GRADLINT_TEST_PYTHONS", "").split(os.pathsep) if p]
    for exe in [*listed, *(shutil.which(f"python3.{minor}") for minor in range(10, 15))]:
        if not exe:
            continue
        try:
            real = subprocess.run([exe, "-c", "import sys; print(sys.executable)"], cwd="/", capture_output=True,
                                  text=True, timeout=30).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            continue
        if real and os.path.realpath(real) != os.path.realpath(sys.executable) and real not in found:
            found.append(real)
    return found


@pytest.mark.parametrize("python", _other_pythons() or [None])
def test_vscode_launcher_with_the_bundle_on_each_python(ws: Path, python: str | None) -> None:
    """The bundled mode on every CPython >= 3.10 found on PATH: 3.10 has no -P/PYTHONSAFEPATH,
    and `python -m` in the workspace would import its `runpy.py`; 3.12+ its `types.py`."""
    if python is None:
        pytest.skip("no other python3.1x on PATH")
    if not (BUNDLE / "gradlint_bundle.json").is_file():
        pytest.skip("the VS Code bundle is not built (npm run bundle-server in editors/vscode)")
    for name in ("runpy.py", "types.py", "importlib/__init__.py"):
        (ws / name).parent.mkdir(exist_ok=True)
        shutil.copy(ws / "json.py", ws / name)
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env.update(PYTHONPATH=str(BUNDLE), GRADLINT_BUNDLE=str(BUNDLE))
    _session([python, str(LAUNCHER), "lsp"], ws, env, {"dynamicChecks": False})


@pytest.mark.parametrize("args", [["check", "."], ["check", "--fix", "."], ["check", "--output-format", "sarif", "."],
                                  ["check", "--diff", "."]], ids=["check", "fix", "sarif", "diff"])
def test_gradlint_check_runs_nothing(ws: Path, args: list[str]) -> None:
    r = subprocess.run([_gradlint(), *args], cwd=ws, capture_output=True, text=True, timeout=120)
    assert r.returncode in (0, 1), r.stderr
    assert "model.py" in r.stdout or "--fix" in args, r.stdout  # the finding, or the diff of its fix
    assert hostile_workspace.markers(ws) == []


def test_python_m_gradlint_check_drops_the_working_directory(ws: Path) -> None:
    """`python -m gradlint` cannot be protected from a `gradlint/` in the working directory
    (docs/security.md), but the modules it imports later are not taken from there."""
    shutil.rmtree(ws / "gradlint")
    r = subprocess.run([sys.executable, "-m", "gradlint", "check", "."], cwd=ws, capture_output=True, text=True, timeout=120)
    assert r.returncode == 1 and "GL205" in r.stdout, r.stderr
    assert hostile_workspace.markers(ws) == []


async def test_lint_process_never_searches_the_working_directory(ws: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The server's lint process when the server's own path has the workspace on it (an empty
    or relative PYTHONPATH entry, `python -m`): the child gets the server's path without it,
    and `-E` keeps PYTHONPATH from putting it back while Python starts (sitecustomize)."""
    from gradlint.config import Config
    from gradlint_server import linter

    monkeypatch.chdir(ws)
    monkeypatch.setattr(sys, "path", ["", ".", "src", str(ws), *sys.path])
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(["", str(ws)]))
    assert "" not in linter.import_path() and str(ws) not in linter.import_path() and "src" not in linter.import_path()
    proc = linter.LintPool()
    try:
        diags, _, _ = await proc.check("k", str(ws / "model.py"), Config(), (ws / "model.py").read_text())
        fixed, n = await proc.fix(str(ws / "model.py"), Config(), (ws / "model.py").read_text())
    finally:
        await proc.close()
    assert [d.code for d in diags] == ["GL205"] and n == 1 and "loss.item()" in fixed
    assert hostile_workspace.markers(ws) == []


@pytest.mark.parametrize("argv, name", [
    (["py", "-m", "gradlint", "check", "."], "gradlint"),
    (["py", "-mgradlint.rules.catalog", "--write"], "gradlint.rules.catalog"),
    (["py", "-X", "dev", "-Wignore", "-Bm", "gradlint"], "gradlint"),
    (["py", "-Xutf8", "--check-hash-based-pycs", "always", "-m", "gradlint"], "gradlint"),
    (["py", "-m", "mytrainer", "-m", "gradlint"], "mytrainer"),
    (["py", "train.py", "-m", "gradlint"], None),
    (["py", "-c", "import gradlint", "-m", "gradlint"], None),
    (["py", "-"], None),
])
def test_main_module_of_a_command_line(argv: list[str], name: str | None) -> None:
    from gradlint._startpath import main_module

    assert main_module(argv) == name


def test_python_m_of_another_package_keeps_the_working_directory(tmp_path: Path) -> None:
    """Only `python -m gradlint...` loses the directory: a program run with -m whose package
    imports gradlint while it is located still finds its own modules there."""
    (tmp_path / "mytrainer").mkdir()
    (tmp_path / "mytrainer" / "__init__.py").write_text("import gradlint\nimport helpers\n")
    (tmp_path / "mytrainer" / "__main__.py").write_text("import helpers\nprint(helpers.VALUE)\n")
    (tmp_path / "helpers.py").write_text("VALUE = 'found'\n")
    r = subprocess.run([sys.executable, "-m", "mytrainer"], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and r.stdout.strip() == "found", r.stderr
