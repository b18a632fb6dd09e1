"""The child process: limits itself, imports torch once, then serves check requests.

Started by worker.py in the user's interpreter, in a new session (its own process group), with
stdout/stderr going to a pipe the parent drains with a cap. Its stdin is one end of a socket
pair: requests and replies travel over it, one JSON object per line, so nothing the target
prints can be mistaken for a reply. Before anything else the child moves that socket to a
high, close-on-exec descriptor and puts /dev/null on stdin (the target's subprocesses do not
inherit the channel, and `input()` gets EOF), reads the token the parent sent first, and puts
it into every message.

Messages to the parent (each with "token"):
    {"type": "hello", "pid", "python", "torch", "error", "startup"}   once, after importing torch
    {"type": "progress", "id", "message"}                             any number
    {"type": "result", "id", "report", "reusable", "leftovers"}       one per request

Must run on every Python the user might have (3.10+), and must not import the rest of
gradlint (whose dependencies the user's interpreter may lack): the bootstrap in worker.py
registers a bare `gradlint` package so that only gradlint.dynamic is loaded.
"""

from __future__ import annotations

import faulthandler
import fcntl
import json
import os
import resource
import socket
import sys
import threading
import time
from typing import Any

from gradlint.dynamic import proctree

FILE_LIMIT = 1 << 30  # a runaway writer gets SIGXFSZ instead of filling the disk


def limit_resources(memory_mb: int) -> None:
    """Hard limits (the target cannot raise them again). RLIMIT_DATA counts what allocations
    really take (heap and private mappings, Linux >= 4.7) but not address space that CUDA or
    mmap merely reserve, so torch imports fine under it; elsewhere fall back to RLIMIT_AS."""
    if memory_mb > 0:
        limit = memory_mb * 1024 * 1024
        kind = resource.RLIMIT_DATA if sys.platform.startswith("linux") else resource.RLIMIT_AS
        resource.setrlimit(kind, (limit, limit))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))  # a segfault must not write a core file
    try:
        resource.setrlimit(resource.RLIMIT_FSIZE, (FILE_LIMIT, FILE_LIMIT))
    except (ValueError, OSError):
        pass


CHANNEL_FD_MIN = 100  # out of the way of the descriptors a target typically opens or closes


class Channel:
    def __init__(self, fd: int) -> None:
        self.sock = socket.socket(fileno=fd)
        self.reader = self.sock.makefile("rb")
        self.token = ""

    @classmethod
    def from_stdin(cls) -> Channel:
        """Take the socket off stdin: a close-on-exec copy high up, /dev/null on fd 0."""
        fd = fcntl.fcntl(0, fcntl.F_DUPFD_CLOEXEC, CHANNEL_FD_MIN)
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.close(null)
        channel = cls(fd)
        first = json.loads(channel.reader.readline() or b"{}")
        channel.token = str(first.get("token", ""))
        return channel

    def send(self, message: dict[str, Any]) -> None:
        message["token"] = self.token
        self.sock.sendall((json.dumps(message, allow_nan=False) + "\n").encode())

    def requests(self):
        for line in self.reader:
            line = line.strip()
            if line:
                yield json.loads(line)


def kill_stray_processes() -> list[dict[str, Any]]:
    """Processes the target started (subprocess, multiprocessing, and those that left our
    process group or session: we are their subreaper) are ended after each request, so a warm
    worker leaves nothing behind, and reaped. -> what was still running."""
    left: list[dict[str, Any]] = []
    if proctree.available():  # without /proc (macOS) the parent's group kill is all there is
        left = [{"pid": pid, "command": cmd} for pid, cmd in proctree.kill_tree(os.getpid(), keep_root=True)]
    end = time.monotonic() + 2.0
    while time.monotonic() < end:  # reap: killed processes, and orphans re-parented to us
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            break
        if pid == 0:
            time.sleep(0.005)
    return left


def purge_user_modules(before: set[str], roots: list[str]) -> None:
    """Forget modules the request imported from the user's files, so that the next request
    sees edits; libraries stay imported (that is what keeps the worker warm)."""
    roots = [os.path.abspath(r) + os.sep for r in roots if r]
    for name in list(sys.modules):
        if name in before:
            continue
        mod = sys.modules.get(name)
        path = getattr(mod, "__file__", None) or ""
        if name.startswith("_gradlint_target_") or any(os.path.abspath(path).startswith(r) for r in roots):
            sys.modules.pop(name, None)


def serve(channel: Channel) -> None:
    import torch

    from gradlint.dynamic.request import execute

    baseline_threads = threading.active_count()
    for request in channel.requests():
        rid = request.get("id")
        before = set(sys.modules)
        dtype, grad = torch.get_default_dtype(), torch.is_grad_enabled()
        report = execute(request, lambda m, rid=rid: channel.send({"type": "progress", "id": rid, "message": m}))
        torch.set_default_dtype(dtype)
        torch.set_grad_enabled(grad)
        target = str(request.get("target", ""))
        folder = os.path.dirname(os.path.join(request.get("cwd") or "", target.split("::")[0]))
        purge_user_modules(before, [request.get("cwd") or "", folder])
        leftovers = kill_stray_processes()
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except Exception:  # noqa: BLE001, S110 - the target may have closed or replaced them
                pass
        # Threads the target left running would keep running between requests: then this
        # worker is not clean any more and the parent replaces it.
        reusable = threading.active_count() <= baseline_threads
        channel.send({"type": "result", "id": rid, "report": report, "reusable": reusable,
                      "leftovers": leftovers})


def main(argv: list[str]) -> None:
    memory_mb = int(argv[0])
    channel = Channel.from_stdin()  # before anything a target could see or inherit
    limit_resources(memory_mb)
    proctree.become_subreaper()  # orphans of what the target starts stay ours to kill
    faulthandler.enable(file=sys.stderr, all_threads=True)  # a segfault leaves a traceback in the output
    t0 = time.perf_counter()
    hello: dict[str, Any] = {"type": "hello", "pid": os.getpid(), "python": sys.version.split()[0],
                             "executable": sys.executable, "torch": None, "error": None}
    try:
        import torch

        hello["torch"] = torch.__version__
    except BaseException as e:  # noqa: BLE001 - report why torch is missing, then stop
        hello["error"] = f"{type(e).__name__}: {e}"
    hello["startup"] = time.perf_counter() - t0
    channel.send(hello)
    if hello["error"] is None:
        serve(channel)
