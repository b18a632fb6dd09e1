"""Run checks in child processes: one-shot (run_check) or warm (WorkerPool / Worker).

torch-free: the CLI and the language server import this without torch. The target's code
runs only in the child, which is started in its own session (process group) with a memory
limit (child.py), stdin from /dev/null, and stdout/stderr drained here through a bounded
buffer. A timeout, a cancellation or too much output kills the whole process group, so
processes the target spawned die with it. Whatever goes wrong comes back as a report dict
with verdict "error" and the reason; nothing here raises for a problem in user code.
"""

from __future__ import annotations

import collections
import itertools
import json
import os
import select
import selectors
import signal
import subprocess
import sys
import threading
import time
from typing import Any, Callable

from .report import error_report

DEFAULT_MEMORY_MB = 4096  # torch alone needs ~250 MB of data segment; 4 GiB leaves room for real models
DEFAULT_OUTPUT_LIMIT = 16 << 20  # bytes of stdout+stderr per check before the child is killed
DEFAULT_STARTUP_TIMEOUT = 120.0  # interpreter + `import torch`, separate from the check's timeout
OUTPUT_TAIL = 8 << 10  # bytes of output kept for the report
MAX_MESSAGE = 64 << 20  # a reply line longer than this is not from us

# Registers a bare `gradlint` package so that the child imports gradlint.dynamic only, not the
# linter (whose dependencies the user's interpreter may not have).
BOOTSTRAP = (
    "import sys, types\n"
    "pkg = types.ModuleType('gradlint')\n"
    "pkg.__path__ = [sys.argv[1]]\n"
    "sys.modules['gradlint'] = pkg\n"
    "from gradlint.dynamic.child import main\n"
    "main(sys.argv[2:])\n"
)
PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

SIGNALS = {
    signal.SIGSEGV: "crashed with a segmentation fault (SIGSEGV)",
    signal.SIGBUS: "crashed with a bus error (SIGBUS)",
    signal.SIGABRT: "aborted (SIGABRT), e.g. a failed assertion in native code",
    signal.SIGFPE: "crashed with a floating-point exception (SIGFPE)",
    signal.SIGILL: "crashed with an illegal instruction (SIGILL)",
    signal.SIGKILL: "was killed (SIGKILL), possibly by the system for running out of memory",
    signal.SIGXFSZ: "exceeded the file-size limit (SIGXFSZ) by writing more than 1 GiB to a file",
    signal.SIGTERM: "was terminated (SIGTERM)",
}


class Output:
    """Drains the child's stdout+stderr on a thread: keeps a tail, counts bytes per check."""

    def __init__(self, stream, limit: int) -> None:
        self.stream = stream
        self.limit = limit
        self.tail: collections.deque[bytes] = collections.deque()
        self.tail_bytes = 0
        self.count = 0
        self.overflow = threading.Event()
        self.lock = threading.Lock()
        self.thread = threading.Thread(target=self._drain, name="gradlint-output", daemon=True)
        self.thread.start()

    def _drain(self) -> None:
        fd = self.stream.fileno()
        while True:
            try:
                chunk = os.read(fd, 1 << 16)
            except OSError:
                return
            if not chunk:
                return
            with self.lock:
                self.count += len(chunk)
                if self.count > self.limit:
                    self.overflow.set()
                self.tail.append(chunk)
                self.tail_bytes += len(chunk)
                while self.tail_bytes - len(self.tail[0]) >= OUTPUT_TAIL:
                    self.tail_bytes -= len(self.tail.popleft())

    def reset(self) -> None:
        with self.lock:
            self.tail.clear()
            self.tail_bytes = 0
            self.count = 0
            self.overflow.clear()

    def text(self) -> str:
        with self.lock:
            data = b"".join(self.tail)[-OUTPUT_TAIL:]
        return data.decode("utf-8", "replace")


class Worker:
    """One child process in `python`, reused across checks until it dies or is killed."""

    def __init__(self, python: str | None = None, memory_mb: int = DEFAULT_MEMORY_MB,
                 output_limit: int = DEFAULT_OUTPUT_LIMIT,
                 startup_timeout: float = DEFAULT_STARTUP_TIMEOUT) -> None:
        self.python = python or sys.executable
        self.memory_mb = memory_mb
        self.output_limit = output_limit
        self.startup_timeout = startup_timeout
        self.proc: subprocess.Popen | None = None
        self.hello: dict[str, Any] | None = None
        self.last_pid: int | None = None  # of the latest child, kept after it is gone
        self._req_w: int | None = None
        self._resp_r: int | None = None
        self._buffer = b""
        self._output: Output | None = None
        self._ids = itertools.count(1)
        self._lock = threading.Lock()

    @property
    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    # -- lifecycle ---------------------------------------------------------------------------

    def _spawn(self) -> None:
        req_r, req_w = os.pipe()
        resp_r, resp_w = os.pipe()
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        try:
            self.proc = subprocess.Popen(
                [self.python, "-c", BOOTSTRAP, PACKAGE_DIR, str(req_r), str(resp_w), str(self.memory_mb)],
                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                pass_fds=(req_r, resp_w), start_new_session=True, env=env)
        finally:
            os.close(req_r)
            os.close(resp_w)
        self._req_w, self._resp_r, self._buffer = req_w, resp_r, b""
        self.last_pid = self.proc.pid
        os.set_blocking(resp_r, False)
        self._output = Output(self.proc.stdout, self.output_limit)

    def close(self) -> None:
        """Kill the child's whole process group and release everything."""
        proc = self.proc
        if proc is not None:
            # killpg before reaping: until the leader is reaped its pid, and so the group id,
            # cannot be reused by an unrelated process.
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:  # pragma: no cover - uninterruptible sleep
                pass
            if self._output is not None:
                self._output.thread.join(timeout=1)
            if proc.stdout is not None:
                proc.stdout.close()
        for fd in (self._req_w, self._resp_r):
            if fd is not None:
                try:
                    os.close(fd)
                except OSError:
                    pass
        self.proc, self.hello, self._req_w, self._resp_r = None, None, None, None

    def __enter__(self) -> Worker:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    # -- messages ----------------------------------------------------------------------------

    def _messages(self, timeout: float) -> tuple[list[dict[str, Any]], bool]:
        """Wait up to `timeout` for reply lines: (messages, eof)."""
        sel = selectors.DefaultSelector()
        sel.register(self._resp_r, selectors.EVENT_READ)
        try:
            ready = sel.select(timeout)
        finally:
            sel.close()
        eof = False
        if ready:
            try:
                while True:
                    chunk = os.read(self._resp_r, 1 << 16)
                    if not chunk:
                        eof = True
                        break
                    self._buffer += chunk
                    if len(self._buffer) > MAX_MESSAGE:
                        raise ValueError("reply too long")
            except BlockingIOError:
                pass
        out = []
        while b"\n" in self._buffer:
            line, self._buffer = self._buffer.split(b"\n", 1)
            if line.strip():
                out.append(json.loads(line))
        return out, eof

    def _start(self, cancel: threading.Event | None) -> dict[str, Any] | None:
        """Start the child and wait for its hello; an error report dict if that fails."""
        t0 = time.monotonic()
        try:
            self._spawn()
        except OSError as e:
            self.close()
            return _error("startup", f"Cannot start {self.python}: {e}")
        deadline = t0 + self.startup_timeout
        while True:
            if cancel is not None and cancel.is_set():
                self.close()
                return _error("cancelled", "Cancelled while starting the worker.")
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                out = self._output.text() if self._output else ""
                self.close()
                return _error("startup", f"{self.python} did not start within {self.startup_timeout:.0f} s "
                              "(importing torch).", output=out)
            msgs, eof = self._messages(min(0.05, remaining))
            for m in msgs:
                if m.get("type") == "hello":
                    self.hello = m
                    if m.get("error"):
                        self.close()
                        return _error("startup", f"torch cannot be imported by {self.python}: {m['error']}")
                    self.hello["startup_wall"] = time.monotonic() - t0
                    return None
            if eof:
                out = self._output.text() if self._output else ""
                code = self.proc.wait() if self.proc else None
                self.close()
                return _error("startup", f"{self.python} exited during start-up (status {code}).", output=out)

    # -- a check -----------------------------------------------------------------------------

    def run(self, request: dict[str, Any], timeout: float, cancel: threading.Event | None = None,
            progress: Callable[[str], None] | None = None) -> dict[str, Any]:
        """Run one check; returns the report dict. `timeout` bounds the check itself (the
        worker's start-up has its own limit). On timeout, cancellation, too much output or a
        crash the child's process group is killed and the next run starts a fresh one."""
        with self._lock:
            t0 = time.monotonic()
            target = str(request.get("target", "")) if isinstance(request, dict) else ""
            startup = None
            if not self.alive:
                self.close()
                err = self._start(cancel)
                if err is not None:
                    return _finish(err, target, t0)
                startup = (self.hello or {}).get("startup_wall")
            report = self._run(request, timeout, cancel, progress, target)
            report.setdefault("timings", {})
            if startup is not None:
                report["timings"]["startup"] = startup
            report["timings"]["wall"] = time.monotonic() - t0
            return report

    def _run(self, request, timeout, cancel, progress, target) -> dict[str, Any]:
        rid = next(self._ids)
        message = dict(request) if isinstance(request, dict) else {"target": request}
        message["id"] = rid
        self._output.reset()
        try:
            data = (json.dumps(message) + "\n").encode()
            view = memoryview(data)
            while view:  # blocking write: the child reads requests as soon as it is idle
                view = view[os.write(self._req_w, view):]
        except (OSError, TypeError, ValueError) as e:
            self.close()
            return _finish(_error("crash", f"Could not send the request to the worker: {e}"), target)
        deadline = time.monotonic() + timeout
        while True:
            if cancel is not None and cancel.is_set():
                return self._kill("cancelled", "Cancelled.", target)
            if self._output.overflow.is_set():
                return self._kill("output_limit", f"The target printed more than "
                                  f"{self.output_limit >> 20} MiB of output; stopped it.", target)
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return self._kill("timeout", f"The check did not finish within {timeout:g} s "
                                  "(an infinite loop, or a target too slow for this limit); stopped it.",
                                  target)
            try:
                msgs, eof = self._messages(min(0.05, remaining))
            except ValueError as e:
                return self._kill("crash", f"The worker sent an unreadable reply ({e}).", target)
            for m in msgs:
                if m.get("id") != rid:
                    continue
                if m.get("type") == "progress" and progress is not None:
                    progress(str(m.get("message", "")))
                elif m.get("type") == "result":
                    report = m.get("report") or {}
                    self._wait_output()
                    report["output"] = self._output.text()
                    if not m.get("reusable", True):
                        self.close()
                    return report
            if eof:
                return self._died(target)

    def _wait_output(self) -> None:
        """The child flushed its output before replying, but the reply can overtake it on the
        other pipe: wait (briefly) until the drain thread has emptied the output pipe."""
        fd = self.proc.stdout.fileno() if self.proc and self.proc.stdout else None
        end = time.monotonic() + 0.2
        while fd is not None and time.monotonic() < end:
            readable, _, _ = select.select([fd], [], [], 0)
            if not readable:
                break
            time.sleep(0.001)
        time.sleep(0.001)  # the drain may hold a chunk it has read but not yet stored

    def _kill(self, kind: str, message: str, target: str) -> dict[str, Any]:
        out = self._output.text() if self._output else ""
        self.close()
        return _finish(_error(kind, message, output=out), target)

    def _died(self, target: str) -> dict[str, Any]:
        out = self._output.text() if self._output else ""
        proc = self.proc
        try:
            os.killpg(proc.pid, signal.SIGKILL)  # its children, before reaping the leader
        except (ProcessLookupError, PermissionError):
            pass
        code = proc.wait()
        self.close()
        if code < 0:
            what = SIGNALS.get(-code, f"was killed by signal {-code}")
            kind = "memory" if -code == signal.SIGKILL else "crash"
            msg = f"The worker running the target {what}."
        else:
            kind = "exit"
            msg = (f"The worker running the target exited with status {code} (os._exit, or an "
                   "exit from native code) before finishing the check.")
        return _finish(_error(kind, msg, output=out), target)


class WorkerPool:
    """Warm workers, one per interpreter, for repeated checks (the language server)."""

    def __init__(self, memory_mb: int = DEFAULT_MEMORY_MB, output_limit: int = DEFAULT_OUTPUT_LIMIT,
                 startup_timeout: float = DEFAULT_STARTUP_TIMEOUT) -> None:
        self.options = {"memory_mb": memory_mb, "output_limit": output_limit,
                        "startup_timeout": startup_timeout}
        self.workers: dict[str, Worker] = {}
        self.lock = threading.Lock()

    def get(self, python: str | None = None) -> Worker:
        """The worker for `python` (default: this interpreter); started lazily by its first run,
        and restarted by a run after it died or was killed."""
        key = python or sys.executable
        with self.lock:
            if key not in self.workers:
                self.workers[key] = Worker(key, **self.options)
            return self.workers[key]

    def close(self) -> None:
        with self.lock:
            workers, self.workers = list(self.workers.values()), {}
        for w in workers:
            w.close()

    def __enter__(self) -> WorkerPool:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def run_check(request: dict[str, Any], python: str | None = None, timeout: float = 60.0,
              cancel: threading.Event | None = None, progress: Callable[[str], None] | None = None,
              memory_mb: int = DEFAULT_MEMORY_MB) -> dict[str, Any]:
    """One isolated check in a fresh child process, which is gone when this returns."""
    with Worker(python, memory_mb=memory_mb) as worker:
        return worker.run(request, timeout, cancel, progress)


def _error(kind: str, message: str, output: str = "") -> dict[str, Any]:
    d = error_report(kind, message).to_dict()
    d["output"] = output
    return d


def _finish(report: dict[str, Any], target: str, t0: float | None = None) -> dict[str, Any]:
    report["target"] = report.get("target") or target
    if t0 is not None:
        report.setdefault("timings", {})["wall"] = time.monotonic() - t0
    return report
