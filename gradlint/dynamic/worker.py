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
from collections.abc import Callable
from typing import Any

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
        self._lock = threading.Lock()  # one check at a time
        self._state_lock = threading.Lock()  # the child's process and pipes

    @property
    def alive(self) -> bool:
        proc = self.proc
        return proc is not None and not _exited(proc)

    # -- lifecycle ---------------------------------------------------------------------------

    def _spawn(self) -> None:
        req_r, req_w = os.pipe()
        resp_r, resp_w = os.pipe()
        env = _child_env()
        try:
            proc = subprocess.Popen(
                [self.python, "-c", BOOTSTRAP, PACKAGE_DIR, str(req_r), str(resp_w), str(self.memory_mb)],
                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                pass_fds=(req_r, resp_w), start_new_session=True, env=env)
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

    def close(self) -> None:
        """Kill the child's whole process group and release everything (thread-safe)."""
        _terminate(*self._detach())

    def _detach(self) -> tuple:
        """Take the child's state and clear it at once, so that a close() on another thread and a
        fresh start cannot interleave; the caller then terminates what it took."""
        with self._state_lock:
            taken = (self.proc, self._req_w, self._resp_r, self._output)
            self.proc, self.hello, self._req_w, self._resp_r, self._output = None, None, None, None, None
        return taken

    def __enter__(self) -> Worker:  # noqa: PYI034 - Python 3.10 has no typing.Self
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- messages ----------------------------------------------------------------------------

    def _messages(self, timeout: float) -> tuple[list[dict[str, Any]], bool]:
        """Wait up to `timeout` for reply lines: (messages, eof)."""
        fd = self._resp_r
        if fd is None:
            raise OSError("the worker was closed")
        sel = selectors.DefaultSelector()
        sel.register(fd, selectors.EVENT_READ)
        try:
            ready = sel.select(timeout)
        finally:
            sel.close()
        eof = False
        if ready:
            try:
                while True:
                    chunk = os.read(fd, 1 << 16)
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
        output = self._output
        deadline = t0 + self.startup_timeout
        while True:
            if cancel is not None and cancel.is_set():
                self.close()
                return _error("cancelled", "Cancelled while starting the worker.")
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                self.close()
                return _error("startup", f"{self.python} did not start within {self.startup_timeout:.0f} s "
                              "(importing torch).", output=output.text())
            try:
                msgs, eof = self._messages(min(0.05, remaining))
            except OSError:
                return _error("cancelled", "The worker was shut down while starting.")
            for m in msgs:
                if m.get("type") == "hello":
                    if m.get("error"):
                        self.close()
                        return _error("startup", f"torch cannot be imported by {self.python}: {m['error']}")
                    m["startup_wall"] = time.monotonic() - t0
                    self.hello = m
                    return None
            if eof:
                code = _terminate(*self._detach())
                return _error("startup", f"{self.python} exited during start-up (status {code}).",
                              output=output.text())

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
        proc, output, req_w = self.proc, self._output, self._req_w
        if proc is None or output is None or req_w is None:
            return _finish(_error("cancelled", "The worker was shut down."), target)
        output.reset()
        try:
            data = (json.dumps(message) + "\n").encode()
            view = memoryview(data)
            while view:  # blocking write: the child reads requests as soon as it is idle
                view = view[os.write(req_w, view):]
        except (OSError, TypeError, ValueError) as e:
            self.close()
            return _finish(_error("crash", f"Could not send the request to the worker: {e}"), target)
        deadline = time.monotonic() + timeout
        while True:
            if self.proc is not proc:  # close() from another thread (shutdown)
                return _shut_down(target)
            if cancel is not None and cancel.is_set():
                return self._kill("cancelled", "Cancelled.", target)
            if output.overflow.is_set():
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
            except OSError:  # its pipes were closed under us: shut down (checked above)
                continue
            for m in msgs:
                if m.get("id") != rid:
                    continue
                if m.get("type") == "progress" and progress is not None:
                    progress(str(m.get("message", "")))
                elif m.get("type") == "result":
                    report = m.get("report") or {}
                    _wait_output(proc)
                    report["output"] = output.text()
                    if not m.get("reusable", True):
                        self.close()
                    return report
            if eof:
                return self._died(target)

    def _kill(self, kind: str, message: str, target: str) -> dict[str, Any]:
        taken = self._detach()
        if taken[0] is None:
            return _shut_down(target)
        out = taken[3].text() if taken[3] else ""
        _terminate(*taken)
        return _finish(_error(kind, message, output=out), target)

    def _died(self, target: str) -> dict[str, Any]:
        """The reply pipe closed: the child is gone (or going); say how it ended."""
        taken = self._detach()
        if taken[0] is None:  # close() on another thread got there first
            return _shut_down(target)
        code = _terminate(*taken)
        out = taken[3].text() if taken[3] else ""
        if code is None:
            return _finish(_error("crash", "The worker stopped answering.", output=out), target)
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

    def __enter__(self) -> WorkerPool:  # noqa: PYI034 - Python 3.10 has no typing.Self
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def run_check(request: dict[str, Any], python: str | None = None, timeout: float = 60.0,
              cancel: threading.Event | None = None, progress: Callable[[str], None] | None = None,
              memory_mb: int = DEFAULT_MEMORY_MB) -> dict[str, Any]:
    """One isolated check in a fresh child process, which is gone when this returns."""
    with Worker(python, memory_mb=memory_mb) as worker:
        return worker.run(request, timeout, cancel, progress)


def _child_env() -> dict:
    """The user's environment for the child; the editor extension's bundle of gradlint's own
    dependencies (GRADLINT_BUNDLE, put on PYTHONPATH for the server) is taken off again so that
    user code imports its own packages, not the bundle's (the bootstrap passes gradlint's
    directory explicitly)."""
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    bundle = env.get("GRADLINT_BUNDLE")
    if bundle and env.get("PYTHONPATH"):
        keep = [p for p in env["PYTHONPATH"].split(os.pathsep) if p and os.path.abspath(p) != os.path.abspath(bundle)]
        if keep:
            env["PYTHONPATH"] = os.pathsep.join(keep)
        else:
            env.pop("PYTHONPATH")
    return env


def _wait_output(proc: subprocess.Popen) -> None:
    """The child flushed its output before replying, but the reply can overtake it on the
    other pipe: wait (briefly) until the drain thread has emptied the output pipe."""
    try:
        fd = proc.stdout.fileno() if proc.stdout else None
    except ValueError:  # closed
        return
    end = time.monotonic() + 0.2
    while fd is not None and time.monotonic() < end:
        try:
            readable, _, _ = select.select([fd], [], [], 0)
        except (OSError, ValueError):
            return
        if not readable:
            break
        time.sleep(0.001)
    time.sleep(0.001)  # the drain may hold a chunk it has read but not yet stored


def _exited(proc: subprocess.Popen) -> bool:
    """Has the child exited? Without reaping it: an unreaped leader keeps its pid, and so the
    process-group id that _terminate kills, from being reused by an unrelated process."""
    if proc.returncode is not None:
        return True
    if hasattr(os, "waitid"):
        try:
            info = os.waitid(os.P_PID, proc.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        except ChildProcessError:
            return True
        return info is not None
    return proc.poll() is not None  # pragma: no cover - platforms without waitid


def _terminate(proc: subprocess.Popen | None, req_w: int | None, resp_r: int | None,
               output: Output | None) -> int | None:
    """Kill a child's process group, reap it, close its pipes; its exit status."""
    code = None
    if proc is not None:
        # killpg before reaping: until the leader is reaped its pid, and so the group id,
        # cannot be reused by an unrelated process. Killing an already dead leader's group
        # still reaches the processes it left behind.
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        try:
            code = proc.wait(timeout=10)
        except subprocess.TimeoutExpired:  # pragma: no cover - uninterruptible sleep
            pass
        if output is not None:
            output.thread.join(timeout=1)
        if proc.stdout is not None:
            proc.stdout.close()
    for fd in (req_w, resp_r):
        if fd is not None:
            try:
                os.close(fd)
            except OSError:
                pass
    return code


def _error(kind: str, message: str, output: str = "") -> dict[str, Any]:
    d = error_report(kind, message).to_dict()
    d["output"] = output
    return d


def _shut_down(target: str) -> dict[str, Any]:
    """The report when close() on another thread took the worker during the check."""
    return _finish(_error("cancelled", "The worker was shut down during the check."), target)


def _finish(report: dict[str, Any], target: str, t0: float | None = None) -> dict[str, Any]:
    report["target"] = report.get("target") or target
    if t0 is not None:
        report.setdefault("timings", {})["wall"] = time.monotonic() - t0
    return report
