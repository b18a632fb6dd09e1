"""The dynamic gradient check (``gradlint gradcheck``).

Importing this package does not import torch: the static linter and the language server import
it without torch installed. torch is imported inside the functions that run a check, and the
CLI/server path runs those only in a child process (see worker.py).

    gradcheck(fn, *inputs, against=None, dtype=None, seed=0, directions=2) -> GradcheckReport
        in-process check (imports torch, runs fn here)
    run_check(request, python, timeout, cancel=None, progress=None) -> dict
        one-shot isolated check in a child process
    WorkerPool().get(python).run(request, timeout, cancel, progress) -> dict
        warm child processes for repeated checks (the language server)
"""

from __future__ import annotations

from typing import Any

from .report import (
    ERROR,
    FAIL,
    INCONCLUSIVE,
    PASS,
    ElementReport,
    GradcheckReport,
    InputReport,
)


def gradcheck(fn: Any, *inputs: Any, **kw: Any) -> GradcheckReport:
    """See gradlint.dynamic.api.gradcheck (imports torch)."""
    from .api import gradcheck as _gradcheck

    return _gradcheck(fn, *inputs, **kw)


def __getattr__(name: str) -> Any:
    # The worker API is torch-free but pulls in subprocess/threading machinery: load on use.
    if name in ("WorkerPool", "Worker", "run_check"):
        from . import worker

        return getattr(worker, name)
    raise AttributeError(name)


__all__ = [
    "ERROR",
    "FAIL",
    "INCONCLUSIVE",
    "PASS",
    "ElementReport",
    "GradcheckReport",
    "InputReport",
    "Worker",
    "WorkerPool",
    "gradcheck",
    "run_check",
]
