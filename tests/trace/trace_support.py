"""Helpers for the trace tests: every script runs in its own child process (`run_trace`), the
way `gradlint trace` runs it; the scripts of a module are traced two at a time."""

from __future__ import annotations

import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
SCRIPTS = HERE / "scripts"
EXPECT = re.compile(r"#\s*(expect|also):\s*(GL\d{3})")


def expectations(path: Path) -> tuple[set, set]:
    """(findings the script must produce, findings it may also produce) as (code, line)."""
    must, may = set(), set()
    for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        for kind, code in EXPECT.findall(line):
            (must if kind == "expect" else may).add((code, i))
    return must, may


def trace(script: Path, steps: int = 3, timeout: float = 90.0, args=()) -> dict:
    from gradlint.trace.runner import run_trace

    return run_trace({"script": str(script), "args": list(args), "cwd": str(script.parent), "steps": steps},
                     timeout=timeout)


def trace_all(scripts: list[Path]) -> dict[str, dict]:
    with ThreadPoolExecutor(2) as pool:
        return dict(zip([s.name for s in scripts], pool.map(trace, scripts)))
