"""Run a trace in a child process, with the gradient check's isolation (gradlint.dynamic.worker):
its own session and process group (killed at the end, so nothing the program started keeps
running), a wall-time limit, a memory limit, bounded output and no stdin.

torch-free: the CLI and the language server import this without any framework.
"""

from __future__ import annotations

import os
import subprocess
import threading
from collections.abc import Callable
from typing import Any

from gradlint.dynamic.worker import DEFAULT_MEMORY_MB, PACKAGE_DIR, Output, Worker, _child_env

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
    """A Worker whose child runs gradlint.trace.child instead of the gradient checker."""

    def _spawn(self) -> None:
        req_r, req_w = os.pipe()
        resp_r, resp_w = os.pipe()
        try:
            proc = subprocess.Popen(
                [self.python, "-c", BOOTSTRAP, PACKAGE_DIR, str(req_r), str(resp_w), str(self.memory_mb)],
                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                pass_fds=(req_r, resp_w), start_new_session=True, env=_child_env())
        except BaseException:
            os.close(req_w)
            os.close(resp_r)
            raise
        finally:
            os.close(req_r)
            os.close(resp_w)
        os.set_blocking(resp_r, False)
        with self._state_lock:
            self.proc, self._req_w, self._resp_r, self._buffer = proc, req_w, resp_r, b""
            self._output = Output(proc.stdout, self.output_limit)
            self.last_pid = proc.pid


def run_trace(request: dict[str, Any], python: str | None = None, timeout: float = DEFAULT_TIMEOUT,
              memory_mb: int = DEFAULT_MEMORY_MB, cancel: threading.Event | None = None,
              progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Trace one program in a fresh child process, which is gone (with its whole process group)
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
        return raw
    err = raw.get("error") or {"kind": "internal", "message": str(raw.get("explanation") or "no report")}
    kind = err.get("kind", "internal")
    message = MESSAGES.get(kind, "{message}").format(timeout=timeout, limit=output_limit >> 20,
                                                     message=_lower_first(err.get("message", "")))
    return {"schema": 1, "status": "error", "steps": None, "findings": [], "notes": [],
            "error": {"kind": kind, "message": message}, "output": raw.get("output", ""),
            "timings": raw.get("timings", {})}


def _lower_first(text: str) -> str:
    text = text.replace("the check", "the trace").replace("The check", "The trace")
    text = text.replace("The worker running the target", "The program").replace("The worker", "The program")
    return text[:1].lower() + text[1:] if text else text
