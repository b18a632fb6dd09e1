"""Run checks in child processes: one-shot (run_check) or warm (WorkerPool / Worker).

torch-free: the CLI and the language server import this without torch. The target's code
runs only in the child, which is started in its own session (process group) with a memory
limit (child.py), and stdout/stderr drained here through a bounded buffer. Requests and
replies travel over a socket pair handed to the child as its stdin (so no descriptor number
appears on its command line); the child moves it out of the way and puts /dev/null on stdin
before any user code runs. Every reply carries a token sent first on that socket, so a reply
written by something else is rejected rather than believed.

While a check runs, `proctree.MemoryWatch` adds up the memory of the child's whole process
tree, shared memory included; after every check, pass or fail, whatever the target left
running is killed and reported; a timeout, a cancellation, too much output or a crash stops
and kills the whole tree (proctree.py). Whatever goes wrong comes back as a report dict with
verdict "error" and the reason; nothing here raises for a problem in user code.
"""

from __future__ import annotations

import collections
import itertools
import json
import os
import secrets
import select
import selectors
import signal
import socket
import subprocess
import sys
import threading
import time
import weakref
from collections.abc import Callable
from typing import Any

from . import proctree
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
    signal.SIGKILL: "was killed (SIGKILL) by something other than gradlint, possibly the system's "
                    "out-of-memory killer",
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


_LIVE: "weakref.WeakSet[Worker]" = weakref.WeakSet()  # every Worker of this process (close_all)


def close_all() -> None:
    """Close every worker of this process, waiting for terminations in progress: for a process
    about to exit (the language server on SIGTERM or shutdown), so that no check's process tree
    outlives it, stopped or running."""
    for w in list(_LIVE):
        try:
            w.close()
        except Exception:  # noqa: BLE001 - exiting: close what can be closed
            pass


class Worker:
    """One child process in `python`, reused across checks until it dies or is killed."""

    # The program the child runs. A subclass may run another child that speaks the same
    # protocol (child.py's Channel and messages) and so gets the same isolation:
    # gradlint.trace.runner runs a training program under a trace instead of the checker.
    bootstrap = BOOTSTRAP

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
        self._sock: socket.socket | None = None  # our end of the request/reply socket pair
        self._token = ""  # every reply must carry it (a reply without it was not sent by us)
        self._buffer = b""
        self._output: Output | None = None
        self._ids = itertools.count(1)
        self._lock = threading.Lock()  # one check at a time
        self._state_lock = threading.Lock()  # the child's process and pipes
        # held while a child is being terminated: a close() from another thread (the server
        # shutting down) waits for a cancellation's tree kill to finish instead of returning
        # at once, so the process cannot exit between its SIGSTOPs and SIGKILLs
        self._term_lock = threading.Lock()
        _LIVE.add(self)

    @property
    def alive(self) -> bool:
        proc = self.proc
        return proc is not None and not _exited(proc)

    # -- lifecycle ---------------------------------------------------------------------------

    def _spawn(self) -> None:
        ours, theirs = socket.socketpair()
        token = secrets.token_hex(16)
        env = _child_env()
        try:
            proc = subprocess.Popen(
                [self.python, "-c", self.bootstrap, PACKAGE_DIR, str(self.memory_mb)],
                stdin=theirs, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                start_new_session=True, env=env)
        except BaseException:
            ours.close()
            raise
        finally:
            theirs.close()
        ours.sendall((json.dumps({"type": "init", "token": token}) + "\n").encode())
        with self._state_lock:
            self.proc, self._sock, self._token, self._buffer = proc, ours, token, b""
            self._output = Output(proc.stdout, self.output_limit)
            self.last_pid = proc.pid

    def close(self) -> int | None:
        """Kill the child's whole process group and release everything (thread-safe; returns
        only once a termination another thread started is complete too). The child's exit
        status, if this call ended it."""
        with self._term_lock:
            return _terminate(*self._detach())

    def _detach(self) -> tuple:
        """Take the child's state and clear it at once, so that a close() on another thread and a
        fresh start cannot interleave; the caller then terminates what it took."""
        with self._state_lock:
            taken = (self.proc, self._sock, self._output)
            self.proc, self.hello, self._sock, self._output = None, None, None, None
        return taken

    def __enter__(self) -> Worker:  # noqa: PYI034 - Python 3.10 has no typing.Self
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- messages ----------------------------------------------------------------------------

    def _messages(self, timeout: float) -> tuple[list[dict[str, Any]], bool]:
        """Wait up to `timeout` for reply lines: (messages, eof). A line that is not JSON, or
        does not carry this worker's token, raises ValueError."""
        sock = self._sock
        if sock is None:
            raise OSError("the worker was closed")
        sel = selectors.DefaultSelector()
        sel.register(sock, selectors.EVENT_READ)
        try:
            ready = sel.select(timeout)
        finally:
            sel.close()
        eof = False
        if ready:
            try:
                while True:
                    chunk = sock.recv(1 << 16, socket.MSG_DONTWAIT)
                    if not chunk:
                        eof = True
                        break
                    self._buffer += chunk
                    if len(self._buffer) > MAX_MESSAGE:
                        raise ValueError("reply too long")
            except (BlockingIOError, InterruptedError):
                pass
            except ConnectionResetError:
                eof = True
        out = []
        while b"\n" in self._buffer:
            line, self._buffer = self._buffer.split(b"\n", 1)
            if line.strip():
                m = json.loads(line)
                if not isinstance(m, dict) or m.get("token") != self._token:
                    raise ValueError("a message gradlint's worker did not send")
                out.append(m)
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
            except ValueError as e:
                self.close()
                return _error("startup", f"{self.python} sent an unreadable message while starting ({e}).",
                              output=output.text())
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
                code = self.close()
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
        proc, output, sock = self.proc, self._output, self._sock
        if proc is None or output is None or sock is None:
            return _finish(_error("cancelled", "The worker was shut down."), target)
        output.reset()
        try:
            sock.sendall((json.dumps(message) + "\n").encode())
        except (OSError, TypeError, ValueError) as e:
            self.close()
            return _finish(_error("crash", f"Could not send the request to the worker: {e}"), target)
        deadline = time.monotonic() + timeout
        watch = proctree.MemoryWatch(proc.pid, self.memory_mb << 20) if proctree.available() else None
        while True:
            if self.proc is not proc:  # close() from another thread (shutdown)
                return _shut_down(target)
            if cancel is not None and cancel.is_set():
                return self._kill("cancelled", "Cancelled.", target)
            if output.overflow.is_set():
                return self._kill("output_limit", f"The target printed more than "
                                  f"{self.output_limit >> 20} MiB of output; stopped it.", target)
            used = watch.over() if watch is not None else None
            if used is not None:
                return self._kill("memory", f"The check's processes used {used >> 20} MiB of memory "
                                  f"(shared memory included), over the limit of {self.memory_mb} MiB; "
                                  "stopped it: it ran out of memory.", target)
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return self._kill("timeout", f"The check did not finish within {timeout:g} s "
                                  "(an infinite loop, or a target too slow for this limit); stopped it.",
                                  target)
            try:
                msgs, eof = self._messages(min(0.05, remaining))
            except ValueError as e:
                return self._kill("protocol", f"The worker's reply channel carried {e} (the target wrote "
                                  "to it?): the check cannot be trusted and was stopped.", target)
            except OSError:  # the channel was closed under us: shut down (checked above)
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
                    left = list(m.get("leftovers") or [])
                    if proctree.available():  # the child killed its leftovers; make sure
                        left += [{"pid": pid, "command": cmd}
                                 for pid, cmd in proctree.kill_tree(proc.pid, keep_root=True)]
                    _report_leftovers(report, left)
                    if not m.get("reusable", True):
                        self.close()
                    return report
            if eof:
                return self._died(target)

    def _kill(self, kind: str, message: str, target: str) -> dict[str, Any]:
        with self._term_lock:
            taken = self._detach()
            if taken[0] is None:
                return _shut_down(target)
            out = taken[2].text() if taken[2] else ""
            _terminate(*taken)
        return _finish(_error(kind, message, output=out), target)

    def _died(self, target: str) -> dict[str, Any]:
        """The reply channel closed: the child is gone, or it closed the channel itself."""
        with self._term_lock:
            taken = self._detach()
            if taken[0] is None:  # close() on another thread got there first
                return _shut_down(target)
            proc = taken[0]
            end = time.monotonic() + 0.5  # closing the channel and exiting are not simultaneous
            while not _exited(proc) and time.monotonic() < end:
                time.sleep(0.01)
            closed_only = not _exited(proc)
            code = _terminate(*taken)
        out = taken[2].text() if taken[2] else ""
        if closed_only:
            return _finish(_error("crash", "The target closed the worker's reply channel (a file "
                                  "descriptor the check needs) and kept running, so the check could not "
                                  "finish; stopped it.", output=out), target)
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


def _terminate(proc: subprocess.Popen | None, sock: socket.socket | None,
               output: Output | None) -> int | None:
    """Kill a child and everything it started, reap it, close its channel; its exit status."""
    code = None
    if proc is not None:
        # Kill before reaping: until the leader is reaped its pid, and so the session and group
        # ids that the tree is found by, cannot be reused by an unrelated process. Killing an
        # already dead leader's tree still reaches the processes it left behind.
        if proctree.available():
            proctree.kill_tree(proc.pid)
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
    if sock is not None:
        try:
            sock.close()
        except OSError:
            pass
    return code


def _report_leftovers(report: dict[str, Any], left: list[dict[str, Any]]) -> None:
    """Processes the target left running after the check (they were killed): in the report's
    `leftovers`, and a sentence in its notes and explanation."""
    unique: list[dict[str, Any]] = []
    for x in left:
        if isinstance(x, dict) and all(x.get("pid") != y.get("pid") for y in unique):
            unique.append(x)
    if not unique:
        return
    report["leftovers"] = unique
    shown = "; ".join(f"pid {x.get('pid')}" + (f": {x['command']}" if x.get("command") else "") for x in unique[:3])
    more = f" and {len(unique) - 3} more" if len(unique) > 3 else ""
    n = len(unique)
    sentence = (f"The target left {n} process{'es' if n != 1 else ''} running after the check ({shown}{more}); "
                f"gradlint killed {'them' if n != 1 else 'it'}.")
    notes = report.get("notes")
    report["notes"] = ([*notes] if isinstance(notes, list) else []) + [sentence]
    report["explanation"] = f"{report.get('explanation') or ''} {sentence}".strip()


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
