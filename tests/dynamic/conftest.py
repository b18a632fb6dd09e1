"""Fixtures for the gradient-check tests (tests/dynamic only)."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
TARGETS = HERE / "targets"
sys.path.insert(0, str(TARGETS))  # the in-process tests import the target modules directly


def target(name: str, module: str = "functions") -> str:
    """A target spec for the isolated check, relative to the tests' directory."""
    return f"{TARGETS / (module + '.py')}::{name}"


def process_gone(pid: int, within: float = 3.0) -> bool:
    """True once `pid` has exited (a zombie counts as gone: it runs nothing)."""
    end = time.monotonic() + within
    while time.monotonic() < end:
        try:
            with open(f"/proc/{pid}/stat") as f:
                state = f.read().rsplit(")", 1)[1].split()[0]
        except (FileNotFoundError, ProcessLookupError, IndexError):
            return True
        if state in ("Z", "X"):
            return True
        time.sleep(0.05)
    return False


@pytest.fixture(scope="session")
def pool():
    from gradlint.dynamic.worker import WorkerPool

    with WorkerPool() as p:
        yield p


@pytest.fixture
def cwd() -> str:
    return os.getcwd()
