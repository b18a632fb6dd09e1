"""`ruff check` and mypy over the code, as tests: .ci/run runs exactly the README's test command,
so the linters ride along with it. Their configuration is in pyproject.toml ([tool.ruff],
[tool.mypy]): the rule sets the code passes, not everything."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _run(args: list[str]) -> subprocess.CompletedProcess:
    return subprocess.run(args, cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_ruff_check():
    ruff = shutil.which("ruff", path=str(Path(sys.executable).parent)) or shutil.which("ruff")
    if ruff is None:
        pytest.fail("ruff is not installed: pip install -e '.[test]'")
    proc = _run([ruff, "check", "--no-cache", "gradlint", "server", "tests", "benchmarks", "tools"])
    assert proc.returncode == 0, proc.stdout[-6000:] + proc.stderr[-2000:]


def test_mypy():
    if importlib.util.find_spec("mypy") is None:
        pytest.fail("mypy is not installed: pip install -e '.[test]'")
    # the cache would be written into the checkout; the files to check come from pyproject
    proc = _run([sys.executable, "-m", "mypy", "--cache-dir", "/dev/null" if sys.platform != "win32" else "nul"])
    assert proc.returncode == 0, proc.stdout[-6000:] + proc.stderr[-2000:]
