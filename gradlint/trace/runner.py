"""Run a trace in a child process, with the gradient check's isolation (gradlint.dynamic.worker):
its own session and process group, the request/reply socket on its stdin with a per-run token
(the program gets /dev/null), a wall-time limit, a memory limit on each process and a watchdog
on the whole process tree (shared memory included), bounded output; whatever the program
started is killed when the trace ends (the child is a subreaper), and named in a note.

torch-free: the CLI and the language server import this without any framework.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from gradlint.dynamic.worker import DEFAULT_MEMORY_MB, Worker

DEFAULT_TIMEOUT = 120.0

# Like gradlint.dynamic.worker.BOOTSTRAP: a bare `gradlint` package, then the trace child.
BOOTSTRAP = (
    "import sys, types\n"
    "pkg = types.ModuleType('gradlint')\n"
    "pkg.__path__ = [sys.argv[1]]\n"
    "sys.modules['gradlint'] = pkg\n"
    "from gradlint.trace.child import main\n"
    "main(sys.argv[2:])\n"
)

# The worker's messages speak of "the check"; a trace runs a program.
MESSAGES = {
    "timeout": "the program did not reach the requested optimizer steps (or finish) within {timeout:g} s; it was "
               "stopped, with every process it started",
    "output_limit": "the program printed more than {limit} MiB of output; it was stopped, with every process it "
                    "started",
    "cancelled": "the trace was cancelled; the program was stopped, with every process it started",
}


class TraceWorker(Worker):
    """A Worker whose child runs gradlint.trace.child instead of the gradient checker: the same
    channel, limits, memory watchdog and process-tree kill; one program per worker."""

    bootstrap = BOOTSTRAP


def run_trace(request: dict[str, Any], python: str | None = None, timeout: float = DEFAULT_TIMEOUT,
              memory_mb: int = DEFAULT_MEMORY_MB, cancel: threading.Event | None = None,
              progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Trace one program in a fresh child process, which is gone (with every process it started)
    when this returns. Never raises for problems of the program: they come back as a report
    with status "error" and error.kind (timeout, output_limit, memory, crash, exit, exception,
    import, usage, startup, cancelled)."""
    request = dict(request, timeout=timeout)
    with TraceWorker(python, memory_mb=memory_mb) as worker:
        raw = worker.run(request, timeout, cancel, progress)
    return normalize(raw, timeout, worker.output_limit)


def normalize(raw: dict[str, Any], timeout: float, output_limit: int) -> dict[str, Any]:
    """The child's report, or the worker's error report turned into the trace's shape."""
    if "findings" in raw:
        return _with_leftovers(raw)
    err = raw.get("error") or {"kind": "internal", "message": str(raw.get("explanation") or "no report")}
    kind = err.get("kind", "internal")
    message = MESSAGES.get(kind, "{message}").format(timeout=timeout, limit=output_limit >> 20,
                                                     message=_lower_first(err.get("message", "")))
    return {"schema": 1, "status": "error", "steps": None, "findings": [], "notes": [],
            "error": {"kind": kind, "message": message}, "output": raw.get("output", ""),
            "timings": raw.get("timings", {})}


def _with_leftovers(report: dict[str, Any]) -> dict[str, Any]:
    """The worker names the processes a check left running in its own words (a note and the
    explanation); a trace says it of the program."""
    left = [x for x in report.get("leftovers") or [] if isinstance(x, dict)]
    if not left:
        return report
    report = dict(report)
    report.pop("explanation", None)  # the worker's (a trace report has none of its own)
    notes = [n for n in report.get("notes") or [] if not str(n).startswith("The target left ")]
    shown = "; ".join(f"pid {x.get('pid')}" + (f": {_in_trace_words(x['command'])}" if x.get("command") else "")
                      for x in left[:3])
    more = f" and {len(left) - 3} more" if len(left) > 3 else ""
    n = len(left)
    notes.append(f"the program left {n} process{'es' if n != 1 else ''} running when the trace ended "
                 f"({shown}{more}); gradlint killed {'them' if n != 1 else 'it'}")
    report["notes"] = notes
    return report


# The worker's words for what it runs, and the trace's (in this order: longer phrases first).
_WORDS = (
    ("The worker running the target", "The program"),
    ("The worker's reply channel", "The trace's reply channel"),
    ("The check's processes", "The program's processes"),
    ("a fork of the checking process", "a fork of the traced process"),
    ("the target", "the program"), ("The target", "The program"),
    ("the check", "the trace"), ("The check", "The trace"),
    ("The worker", "The traced process"),
)


def _in_trace_words(text: str) -> str:
    for theirs, ours in _WORDS:
        text = text.replace(theirs, ours)
    return text


def _lower_first(text: str) -> str:
    text = _in_trace_words(text)
    return text[:1].lower() + text[1:] if text else text
