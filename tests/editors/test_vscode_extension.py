"""Build, package and test the VS Code extension: `npm ci`, the bundled server, `tsc`/esbuild,
`vsce package`, and its stand-in-`vscode` test suite against the real language server (both
from the build tree and from the unpacked .vsix). VS Code itself cannot be downloaded here."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

EXT = Path(__file__).resolve().parents[2] / "editors" / "vscode"
npm = shutil.which("npm")
npx = shutil.which("npx")
pytestmark = pytest.mark.skipif(npm is None or npx is None, reason="Node.js and npm are needed to build the extension")


def _run(*cmd: str, timeout: int = 900) -> subprocess.CompletedProcess:
    env = dict(os.environ, GRADLINT_TEST_PYTHON=sys.executable, PYTHON=sys.executable)
    # bundle-server uses `python3`: make it the interpreter running the tests
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    proc = subprocess.run(list(cmd), cwd=EXT, env=env, capture_output=True, text=True, timeout=timeout)
    assert proc.returncode == 0, f"{' '.join(cmd)} failed:\n{proc.stdout[-4000:]}\n{proc.stderr[-4000:]}"
    return proc


@pytest.fixture(scope="module")
def built():
    _run(npm, "ci", "--no-audit", "--no-fund")
    _run(npm, "run", "bundle-server")
    _run(npx, "@vscode/vsce", "package", "--out", "gradlint.vsix")
    vsix = EXT / "gradlint.vsix"
    assert vsix.is_file() and vsix.stat().st_size > 100_000
    return vsix


def test_extension_packages(built):
    import zipfile

    names = zipfile.ZipFile(built).namelist()
    assert "extension/package.json" in names
    assert any(n.startswith("extension/dist/") for n in names)
    assert any(n.startswith("extension/bundled/libs/gradlint/") for n in names)


def test_extension_against_the_real_server(built):
    proc = _run(npm, "test", timeout=600)
    assert " pass " in proc.stdout or "# pass" in proc.stdout


def test_packaged_extension_against_the_real_server(built):
    _run(npm, "run", "test:vsix", timeout=600)
