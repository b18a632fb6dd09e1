"""Helpers for the CLI tests (imported by conftest.py and the test modules; a unique module
name because the test tree has no packages): run `gradlint` in a subprocess (with the test-only rules of
plugin/gradlint_test_rules.py loaded) inside a temporary project."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).parent
RUNNER = HERE / "plugin" / "run.py"

# A file with one finding of each test rule; `.backward(` marks it as differentiated code.
SAMPLE = """\
import torch
loss = forbidden(1)
shaky(2)
note_me(3)
loss.backward()
"""


@dataclass
class Result:
    returncode: int
    stdout: str
    stderr: str

    @property
    def lines(self) -> list[str]:
        return self.stdout.splitlines()


def clean_env(**extra: str) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "NO_COLOR", "GRADLINT_DEBUG")}
    env.update(extra)
    return env


def run_gradlint(*args: str, cwd: Path, input: bytes | str | None = None, env: dict | None = None, plugin: bool = True) -> Result:
    cmd = [sys.executable, str(RUNNER)] if plugin else [sys.executable, "-m", "gradlint"]
    if isinstance(input, str):
        input = input.encode()
    proc = subprocess.run(
        cmd + [str(a) for a in args],
        cwd=cwd,
        input=input if input is not None else b"",
        capture_output=True,
        env=env or clean_env(),
        timeout=120,
    )
    return Result(proc.returncode, proc.stdout.decode("utf-8", "replace"), proc.stderr.decode("utf-8", "replace"))


class Project:
    """A temporary directory with helpers to write files and run gradlint in it."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def write(self, rel: str, text: str = SAMPLE, *, dedent: bool = True) -> Path:
        path = self.root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text) if dedent else text, encoding="utf-8")
        return path

    def age(self, seconds: int = 3600) -> None:
        """Backdate every file: ones written in the last seconds are verified by content
        rather than by stat (see gradlint.cache.RACY_NS), which a warm run would show."""
        when = time.time() - seconds
        for p in self.root.rglob("*.py"):
            os.utime(p, (when, when))

    def pyproject(self, body: str) -> Path:
        return self.write("pyproject.toml", "[tool.gradlint]\n" + textwrap.dedent(body))

    def run(self, *args: str, **kw) -> Result:
        kw.setdefault("cwd", self.root)
        return run_gradlint(*args, **kw)

    def check(self, *args: str, **kw) -> Result:
        return self.run("check", *args, **kw)
