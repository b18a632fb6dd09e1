"""Build, package and test the VS Code extension as a user does: the README's command, exactly
as written, in a fresh `git clone` (no node_modules, bundled/ or out/ left over from this
checkout), then its stand-in-`vscode` test suite against the real language server, both from
the build tree and from the unpacked .vsix. VS Code itself cannot be downloaded here."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
npm = shutil.which("npm")
npx = shutil.which("npx")
git = shutil.which("git")
pytestmark = pytest.mark.skipif(npm is None or npx is None or git is None,
                                reason="Node.js, npm and git are needed to build the extension")


def readme_command() -> tuple[str, str]:
    """The README's VS Code build: (directory, shell command), from the line that shows it."""
    line = next(ln for ln in (REPO / "README.md").read_text(encoding="utf-8").splitlines() if ln.startswith("- **VS Code**"))
    m = re.search(r"in `([^`]+)` \(`([^`]*vsce package[^`]*)`", line)
    assert m, f"the README's VS Code line no longer names a directory and a command: {line}"
    return m[1], m[2]


def _env() -> dict[str, str]:
    env = dict(os.environ, GRADLINT_TEST_PYTHON=sys.executable, PYTHON=sys.executable)
    # bundle-server runs `python3`: make it the interpreter running the tests (CPython with pip)
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    return env


def _run(cmd: list[str] | str, cwd: Path, timeout: int = 900) -> subprocess.CompletedProcess:
    proc = subprocess.run(cmd, cwd=cwd, env=_env(), capture_output=True, text=True, timeout=timeout, shell=isinstance(cmd, str))
    shown = cmd if isinstance(cmd, str) else " ".join(cmd)
    assert proc.returncode == 0, f"{shown} failed in {cwd}:\n{proc.stdout[-4000:]}\n{proc.stderr[-4000:]}"
    return proc


def fresh_clone(dest: Path) -> Path:
    """A clone of this repository with its tracked files as they are now: HEAD, plus uncommitted
    edits to tracked files when there are any (`git stash create` records them without touching
    the checkout). Untracked files are not in it, as they would not be in a user's clone."""
    _run([git, "clone", "--quiet", str(REPO), str(dest)], cwd=REPO.parent)
    snapshot = subprocess.run([git, "stash", "create"], cwd=REPO, capture_output=True, text=True, check=True).stdout.strip()
    if snapshot:
        _run([git, "fetch", "--quiet", str(REPO), snapshot], cwd=dest)
        _run([git, "checkout", "--quiet", "--detach", snapshot], cwd=dest)
    return dest


@pytest.fixture(scope="module")
def ext(tmp_path_factory) -> Path:
    """editors/vscode of a fresh clone, built and packaged by the README's command."""
    where, command = readme_command()
    clone = fresh_clone(tmp_path_factory.mktemp("vscode-build") / "gradlint")
    ext = clone / where
    _run(command, cwd=ext)
    return ext


@pytest.fixture(scope="module")
def built(ext: Path) -> Path:
    (vsix,) = ext.glob("*.vsix")
    assert vsix.stat().st_size > 100_000
    return vsix


def test_extension_packages(built):
    import zipfile

    names = zipfile.ZipFile(built).namelist()
    assert "extension/package.json" in names
    assert "extension/dist/extension.js" in names
    assert "extension/launcher/start_server.py" in names  # how the server starts (outside the workspace)
    assert "extension/bundled/libs/gradlint_bundle.json" in names
    assert any(n.startswith("extension/bundled/libs/gradlint_server/") for n in names)
    assert not any("/node_modules/" in n or n.startswith("extension/src/") for n in names)


def test_extension_against_the_real_server(ext, built):
    proc = _run([npm, "test"], cwd=ext, timeout=600)
    assert "# fail 0" in proc.stdout and "# pass " in proc.stdout, proc.stdout[-3000:]


def test_packaged_extension_against_the_real_server(ext, built):
    proc = _run([npm, "run", "test:vsix"], cwd=ext, timeout=600)
    assert "# fail 0" in proc.stdout, proc.stdout[-3000:]
