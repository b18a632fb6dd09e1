"""Fixtures for the editor-integration tests (helpers live in editor_support.py)."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

from editor_support import PITFALL, find_nvim


@pytest.fixture
def pitfall_project(tmp_path: Path) -> Path:
    project = tmp_path / "project"
    project.mkdir()
    (project / "pyproject.toml").write_text("[project]\nname = 'demo'\nversion = '0'\n")
    (project / "train.py").write_text(PITFALL, encoding="utf-8")
    return project


@pytest.fixture
def gradlint_env() -> dict[str, str]:
    """The environment an editor starts `gradlint lsp` in: this interpreter's scripts first on PATH."""
    bin_dir = Path(sys.executable).parent
    if not (bin_dir / "gradlint").exists() and not shutil.which("gradlint"):
        pytest.fail(f"no `gradlint` console script in {bin_dir} or on PATH (pip install -e .)")
    return {**os.environ, "PATH": os.pathsep.join([str(bin_dir), os.environ.get("PATH", "")])}


@pytest.fixture
def nvim011() -> str:
    exe, why = find_nvim()
    if exe is None:
        pytest.skip(why)
    return exe
