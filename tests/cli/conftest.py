"""Fixtures for the CLI tests (helpers live in cli_support.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_support import Project


@pytest.fixture
def project(tmp_path: Path) -> Project:
    # An empty pyproject.toml pins the project root (and the cache) inside tmp_path.
    (tmp_path / "pyproject.toml").write_text("")
    return Project(tmp_path)
