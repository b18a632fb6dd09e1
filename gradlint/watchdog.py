"""Checking files in worker processes, each file under a time limit.

A check runs native code (libcst's parser) that no signal handler and no thread can interrupt,
so the only way to stop one is to stop its process. Files are handed to worker processes a
batch at a time and the workers report after every file; a file that runs past its limit (or
whose worker dies: out of memory, a crash in native code) gets a finding of its own, the
worker is replaced, and the rest of the batch goes on elsewhere. Nothing here knows what a
check is: the caller passes the per-item function and how to report a timeout or a crash.

The limit is on CPU time, enforced in the worker by the kernel (ITIMER_PROF: its signal ends
the process even inside native code), so that a busy CI machine does not turn slow files into
findings; a wall-clock deadline in the parent (twice the limit plus WALL_EXTRA_S) catches a
worker that hangs without using CPU.

A worker writing a file (`--fix`) holds off termination until the write is done
(`uninterruptible`), so a stopped check never leaves a half-written file.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from typing import Any

# The default limit: real files are checked at well over 0.1 MB per CPU-second (the largest
# hand-written file we know of, 1.4 MB, takes ~5 s); hostile ones that escape the parse bounds
# of limits.py grow faster than their size. So: a base for every file plus time per MB.
BASE_S = 5.0
PER_MB_S = 10.0
WALL_EXTRA_S = 5.0
TERM_GRACE_S = 5.0  # after SIGTERM: a worker finishing a write gets this long before SIGKILL


def default_limit(size_bytes: int) -> float:
    return BASE_S + PER_MB_S * max(size_bytes, 0) / 1e6


@dataclass
class Stopped:
    """Why an item has no result: `timeout` (it ran past `limit` seconds) or `crash`."""

    kind: str
    limit: float = 0.0
    detail: str = ""


@dataclass
class _Worker:
    proc: Any
    conn: Connection
    queue: deque = field(default_factory=deque)  # (index, item, limit) assigned, in order
    started: float = 0.0  # when its current item started (wall clock)

    @property
    def busy(self) -> bool:
        return bool(self.queue)


def run(
    items: Sequence[Any],
    work: Callable[[Any], Any],
    stopped: Callable[[Any, Stopped], Any],
    *,
    jobs: int,
    limit: Callable[[Any], float | None],
    init: Callable[..., None] | None = None,
    init_args: tuple = (),
    batch: int = 32,
    context=None,
) -> list[Any]:
    """`[work(item) for item in items]`, computed in up to `jobs` worker processes; an item
    that runs past `limit(item)` seconds (None: no limit) or whose worker dies gets
    `stopped(item, why)` instead. `work`, `init` and the items must be picklable when the
    context spawns. Ctrl-C stops every worker."""
    results: list[Any] = [None] * len(items)
    if not items:
        return results
    ctx = context or multiprocessing.get_context()
    size = max(1, min(batch, len(items) // (max(jobs, 1) * 4)))
    todo: deque = deque((i, items[i], limit(items[i])) for i in range(len(items)))
    workers: list[_Worker] = []
    n_workers = max(1, min(jobs, -(-len(items) // size)))
    try:
        while todo or any(w.busy for w in workers):
            while len(workers) < n_workers and todo:
                workers.append(_start(ctx, work, init, init_args))
            for w in list(workers):
                if not w.busy and todo:
                    chunk = [todo.popleft() for _ in range(min(size, len(todo)))]
                    w.queue.extend(chunk)
                    w.started = time.monotonic()
                    try:
                        w.conn.send(chunk)
                    except OSError:  # it died before taking work: as if on the first item
                        _replace(w, workers, results, stopped, todo, _death(w))
            busy = [w for w in workers if w.busy]
            now = time.monotonic()
            deadlines = [_deadline(w) for w in busy]
            timeout = max(0.0, min((d for d in deadlines if d is not None), default=now + 3600) - now)
            ready = wait([w.conn for w in busy], timeout=timeout)
            for w in busy:
                if w.conn in ready:
                    try:
                        index, value = w.conn.recv()
                    except (EOFError, OSError):
                        _replace(w, workers, results, stopped, todo, _death(w))
                        continue
                    done = w.queue.popleft()
                    assert done[0] == index
                    results[index] = value
                    w.started = time.monotonic()
                elif (d := _deadline(w)) is not None and time.monotonic() >= d:
                    _replace(w, workers, results, stopped, todo, Stopped("timeout", w.queue[0][2]))
    finally:
        for w in workers:
            _stop(w)
    return results


def _deadline(w: _Worker) -> float | None:
    limit = w.queue[0][2]
    return None if limit is None else w.started + 2 * limit + WALL_EXTRA_S


def _start(ctx, work, init, init_args) -> _Worker:
    parent, child = ctx.Pipe()
    proc = ctx.Process(target=_worker_main, args=(child, work, init, init_args), daemon=True, name="gradlint-worker")
    proc.start()
    child.close()
    return _Worker(proc, parent)


def _replace(w: _Worker, workers: list, results: list, stopped, todo: deque, why: Stopped) -> None:
    """The worker's current item ends with `why`; the worker goes; its other items go back."""
    index, item, _ = w.queue.popleft()
    results[index] = stopped(item, why)
    _stop(w)
    todo.extendleft(reversed(w.queue))
    w.queue.clear()
    workers.remove(w)


def _death(w: _Worker) -> Stopped:
    """What ended a worker that closed its pipe without a reply."""
    w.proc.join(TERM_GRACE_S)
    code = w.proc.exitcode
    limit = w.queue[0][2]
    if out_of_time(code):
        return Stopped("timeout", limit)  # the worker's CPU-time limit fired
    if code is not None and code < 0:
        hint = " (out of memory?)" if killed_outright(code) else ""
        return Stopped("crash", limit, f"the worker process checking it was killed by {signal_name(code)}{hint}")
    return Stopped("crash", limit, f"the worker process checking it exited with status {code}")


def out_of_time(code: int | None) -> bool:
    """Whether an exit status (negative: a signal) is the CPU-time limit's signal."""
    return code is not None and code < 0 and -code in (getattr(signal, "SIGPROF", None), getattr(signal, "SIGXCPU", None))


def killed_outright(code: int | None) -> bool:
    """SIGKILL: the kernel's out-of-memory killer, or someone else."""
    return code is not None and code < 0 and -code == getattr(signal, "SIGKILL", None)


def signal_name(code: int) -> str:
    try:
        return signal.Signals(-code).name
    except ValueError:
        return f"signal {-code}"


def _stop(w: _Worker) -> None:
    proc = w.proc
    try:
        w.conn.close()
    except OSError:
        pass
    if proc.exitcode is None:
        proc.terminate()  # SIGTERM: immediate, unless a write holds it off (uninterruptible)
        proc.join(TERM_GRACE_S)
        if proc.exitcode is None:
            proc.kill()
            proc.join()


# ---------------------------------------------------------------------------- the worker
def _worker_main(conn: Connection, work, init, init_args) -> None:
    # Ctrl-C is the parent's to handle (it stops the workers): no tracebacks from here.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for sig in (signal.SIGTERM, getattr(signal, "SIGPROF", None)):
        if sig is not None:
            signal.signal(sig, signal.SIG_DFL)  # end the process, even inside native code
    if init is not None:
        init(*init_args)
    from .gctune import tune

    tune()  # a process that exists to check files (gctune.py)
    while True:
        try:
            chunk = conn.recv()
        except (EOFError, OSError):
            return
        for index, item, limit in chunk:
            arm_cpu_limit(limit)
            try:
                value = work(item)
            finally:
                arm_cpu_limit(None)
            try:
                conn.send((index, value))
            except (OSError, ValueError):
                return


def arm_cpu_limit(limit: float | None) -> None:
    """CPU-time limit for the current item (None: off). SIGPROF's default action ends the
    process wherever it is; the parent reads the signal from the exit status."""
    if not hasattr(signal, "setitimer"):
        return  # no interval timers (Windows): the parent's wall-clock deadline alone applies
    signal.setitimer(signal.ITIMER_PROF, limit or 0.0)


_deferred = threading.local()


@contextmanager
def uninterruptible() -> Iterator[None]:
    """Hold off SIGTERM and the CPU-time signal while writing a file: a worker stopped at
    that moment ends right after the write instead of leaving the file half-written."""
    signals = {signal.SIGTERM} | ({signal.SIGPROF} if hasattr(signal, "SIGPROF") else set())
    if not hasattr(signal, "pthread_sigmask") or getattr(_deferred, "on", False):
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, signals)
    _deferred.on = True
    try:
        yield
    finally:
        _deferred.on = False
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def file_size(path: str) -> int:
    try:
        return os.stat(path).st_size
    except OSError:
        return 0
