"""The Neovim 0.11 snippet (editors/neovim/gradlint.lua), loaded by a real headless Neovim,
attaches gradlint to a Python buffer and shows its diagnostics at the right place."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from editor_support import EDITORS, PITFALL_CODE, PITFALL_LINE, pitfall_columns

HERE = Path(__file__).resolve().parent


def run_nvim(nvim: str, snippet: Path, file: Path, env: dict[str, str], tmp: Path) -> dict:
    out = tmp / "nvim-result.json"
    xdg = {k: str(tmp / "xdg" / k) for k in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME")}
    proc = subprocess.run(
        [nvim, "--headless", "-n", "-i", "NONE", "-u", "NONE", "--noplugin", "-c", f"luafile {HERE / 'nvim_diagnostics.lua'}"],
        env={**env, **xdg, "SNIPPET": str(snippet), "FILE": str(file), "OUT": str(out), "TIMEOUT_MS": "30000"},
        cwd=file.parent, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60,
    )
    assert out.exists(), f"nvim wrote no result (rc={proc.returncode}): {proc.stdout[-2000:]}{proc.stderr[-2000:]}"
    result = json.loads(out.read_text())
    assert proc.returncode == 0, f"{result}\n{proc.stderr[-2000:]}"
    return result


def test_snippet_attaches_and_shows_diagnostics(nvim011, pitfall_project, gradlint_env, tmp_path):
    file = pitfall_project / "train.py"
    result = run_nvim(nvim011, EDITORS / "neovim" / "gradlint.lua", file, gradlint_env, tmp_path)

    assert result["root_dir"] == str(pitfall_project)  # found through root_markers (pyproject.toml)
    found = [d for d in result["diagnostics"] if d["source"] == "gradlint" and d["code"] == PITFALL_CODE]
    assert found, result
    start, end = pitfall_columns("utf-8")  # vim.diagnostic columns are byte offsets, whatever the encoding
    assert (found[0]["lnum"], found[0]["col"], found[0]["end_col"]) == (PITFALL_LINE, start, end)


def test_lspconfig_snippet_is_valid_lua(nvim011, tmp_path):
    # nvim-lspconfig itself is not installed here: check that the file parses and names the server.
    snippet = EDITORS / "neovim" / "lspconfig.lua"
    proc = subprocess.run(
        [nvim011, "--headless", "-u", "NONE", "-l", "-"],
        input=f"assert(loadfile({json.dumps(str(snippet))}))", capture_output=True, text=True, timeout=30,
    )
    assert proc.returncode == 0, proc.stderr
    text = snippet.read_text()
    assert "configs.gradlint" in text and "cmd = { 'gradlint', 'lsp' }" in text
