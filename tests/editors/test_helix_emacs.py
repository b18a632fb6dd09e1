"""Helix's languages.toml and Emacs' gradlint.el: each registers `gradlint lsp` for Python, and
the command and settings they give the editor really start a server that lints."""

from __future__ import annotations

import json
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

from editor_support import EDITORS, PITFALL_CODE, PITFALL_LINE, lint_with, pitfall_columns

HERE = Path(__file__).resolve().parent


def assert_pitfall_found(diagnostics: list[dict], init: dict) -> None:
    encoding = init["capabilities"].get("positionEncoding", "utf-16")
    found = [d for d in diagnostics if d.get("source") == "gradlint" and d.get("code") == PITFALL_CODE]
    assert found, diagnostics
    r = found[0]["range"]
    start, end = pitfall_columns(encoding)
    assert (r["start"]["line"], r["start"]["character"], r["end"]["character"]) == (PITFALL_LINE, start, end)


def resolve(cmd: list[str], env: dict[str, str]) -> list[str]:
    exe = shutil.which(cmd[0], path=env["PATH"])
    assert exe, f"{cmd[0]} not on PATH"
    return [exe, *cmd[1:]]


# ---------------------------------------------------------------- Helix

def helix_config() -> dict:
    return tomllib.loads((EDITORS / "helix" / "languages.toml").read_text())


def test_helix_languages_toml_adds_gradlint_to_python():
    cfg = helix_config()
    server = cfg["language-server"]["gradlint"]
    assert [server["command"], *server["args"]] == ["gradlint", "lsp"]
    python = [lang for lang in cfg["language"] if lang["name"] == "python"]
    assert len(python) == 1
    servers = python[0]["language-servers"]
    assert "gradlint" in servers and len(servers) > 1  # alongside another server, not instead of it


def test_helix_command_and_config_lint(pitfall_project, gradlint_env):
    server = helix_config()["language-server"]["gradlint"]
    # Helix sends `config` as initializationOptions and answers workspace/configuration from it.
    diagnostics, init = lint_with(resolve([server["command"], *server["args"]], gradlint_env), pitfall_project,
                                  gradlint_env, server["config"], server["config"], ["utf-8", "utf-32", "utf-16"])
    assert_pitfall_found(diagnostics, init)


# ---------------------------------------------------------------- Emacs (Eglot)

@pytest.fixture
def emacs() -> str:
    exe = shutil.which("emacs")
    if exe is None:
        pytest.skip("emacs not installed (apt-get install -y emacs-nox elpa-eglot)")
    if subprocess.run([exe, "--batch", "--eval", "(require 'eglot)"], capture_output=True, timeout=60).returncode != 0:
        pytest.skip("Eglot not available to emacs (Emacs 29+, or apt-get install -y elpa-eglot)")
    return exe


def test_emacs_snippet_byte_compiles_cleanly(emacs, tmp_path):
    copy = tmp_path / "gradlint.el"  # compile a copy: no .elc in the source tree
    shutil.copy(EDITORS / "emacs" / "gradlint.el", copy)
    proc = subprocess.run([emacs, "--batch", "--eval", "(progn (require 'eglot) (setq byte-compile-error-on-warn t))",
                           "-f", "batch-byte-compile", str(copy)], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and (tmp_path / "gradlint.elc").exists(), proc.stderr


def test_emacs_eglot_contact_lints(emacs, pitfall_project, gradlint_env):
    proc = subprocess.run([emacs, "--batch", "-l", str(HERE / "emacs_contact.el"), str(EDITORS / "emacs" / "gradlint.el")],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    contact = json.loads(proc.stdout)
    assert contact["command"] == ["gradlint", "lsp"]
    diagnostics, init = lint_with(resolve(contact["command"], gradlint_env), pitfall_project, gradlint_env,
                                  contact["initializationOptions"], contact["workspaceConfiguration"], ["utf-16"])
    assert_pitfall_found(diagnostics, init)
