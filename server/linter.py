"""The server's side of the lint processes (see lintworker.py for why they are processes).

A process serves one request at a time. Each request carries a time limit (the same as
`gradlint check`'s for a file: 5 s plus 10 s per MB, or the `fileTimeout` setting): the lint
process enforces it on its own CPU time (the kernel ends it, even inside libcst's native
parser), and this side keeps a wall-clock deadline as a backstop. A process that ran out of
time or died is replaced; the buffer gets a "not checked" diagnostic saying why in words.

`LintPool` keeps up to MAX_PROCESSES of them, so that one buffer that takes long holds one
process and the other documents go on in another: a document is checked in the process that
checked it before (its parsed units are cached there) when that one is free, else in any free
one; a second process is started only when a request finds every process busy.
"""

from __future__ import annotations

import asyncio
import logging
import os
import pickle
import struct
import sys
from typing import Any

from gradlint.config import Config
from gradlint.diagnostics import Diagnostic
from gradlint.watchdog import WALL_EXTRA_S, default_limit, killed_outright, out_of_time, signal_name

from .lintworker import HEADER, frame

log = logging.getLogger(__name__)


def import_path() -> list[str]:
    """The server's own sys.path without the working directory (an editor starts the server in
    the workspace) or any entry relative to it: the lint process imports what the server
    imports, never the workspace's `gradlint/`, `typing.py` or `json.py`. An empty PYTHONPATH
    entry puts the working directory there as an absolute path, so comparing with "" is not
    enough. The directories the server's own packages came from stay, whatever they are."""
    cwd = os.path.realpath(os.getcwd())
    own = {_origin(name) for name in ("gradlint", "gradlint_server")}
    return [p for p in sys.path if p in own or (p and os.path.isabs(p) and os.path.realpath(p) != cwd)]


def _origin(package: str) -> str | None:
    module = sys.modules.get(package)
    init = getattr(module, "__file__", None)
    return os.path.dirname(os.path.dirname(init)) if init else None


def bootstrap(path: list[str]) -> str:
    """`python -E -c` source of the lint process. -E: PYTHONPATH (which may hold relative or
    empty entries) is not read at all, so nothing is looked up in the working directory while
    Python starts (sitecustomize); then the path is set, before anything is imported, to the
    server's (`import sys` cannot be shadowed: sys is built in)."""
    return f"import sys; sys.path[:] = {path!r}\nfrom gradlint_server.lintworker import main; sys.exit(main())\n"

MAX_PROCESSES = 2


class LintError(Exception):
    """The engine failed on a request, or the request was stopped (the message says why, in
    words fit for the editor)."""


class LintStopped(LintError):
    """The lint process was stopped (time limit) or died while checking: the buffer is not
    checked, for a reason that is not a bug in the engine's handling of it."""


class LintTimeout(LintStopped):
    pass


def limit_for(text: str, setting: float | None = None) -> float:
    """Seconds a check of `text` may take: the `fileTimeout` setting, else as for a file."""
    return setting if setting else default_limit(len(text.encode("utf-8", "surrogatepass")))


class LintProcess:
    def __init__(self, python: str | None = None) -> None:
        self.python = python or sys.executable
        self._proc: asyncio.subprocess.Process | None = None
        self._lock = asyncio.Lock()
        self._next_id = 0
        self.closed = False
        self.pending = 0  # requests in progress or waiting for this process
        self.since = 0.0  # when the current request started (event-loop time)

    @property
    def busy(self) -> bool:
        return self.pending > 0

    async def _ensure(self) -> asyncio.subprocess.Process:
        if self._proc is not None and self._proc.returncode is None:
            return self._proc
        if self.closed:
            raise LintError("the lint process is shut down")
        self._proc = await asyncio.create_subprocess_exec(
            self.python, "-E", "-c", bootstrap(import_path()),
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            limit=2**26,
        )
        log.debug("lint process %s started", self._proc.pid)
        return self._proc

    async def start(self) -> None:
        async with self._lock:  # a check arriving meanwhile must not start a second process
            await self._ensure()

    async def _roundtrip(self, op: str, payload: dict[str, Any]) -> Any:
        proc = await self._ensure()
        assert proc.stdin is not None and proc.stdout is not None
        self._next_id += 1
        req_id = self._next_id
        proc.stdin.write(frame((req_id, op, payload)))
        await proc.stdin.drain()
        while True:
            head = await proc.stdout.readexactly(HEADER.size)
            (size,) = HEADER.unpack(head)
            data = await proc.stdout.readexactly(size)
            rid, ok, value = pickle.loads(data)
            if rid == req_id:
                break
        if not ok:
            raise LintError(value)
        return value

    async def request(self, op: str, payload: dict[str, Any]) -> Any:
        # Shielded: a caller cancelled mid-read (e.g. a pull request the client gave up on)
        # must not leave half a reply in the pipe for the next request to trip over.
        task = asyncio.ensure_future(self._locked(op, payload))
        task.add_done_callback(lambda t: t.cancelled() or t.exception())  # retrieved if orphaned
        return await asyncio.shield(task)

    async def _locked(self, op: str, payload: dict[str, Any]) -> Any:
        limit = payload.get("limit")
        deadline = None if limit is None else 2 * limit + WALL_EXTRA_S
        self.pending += 1
        try:
            async with self._lock:
                self.since = asyncio.get_running_loop().time()
                return await self._attempts(op, payload, limit, deadline)
        finally:
            self.pending -= 1

    async def _attempts(self, op: str, payload: dict[str, Any], limit: float | None, deadline: float | None) -> Any:
        for attempt in (1, 2):
            try:
                return await asyncio.wait_for(self._roundtrip(op, payload), deadline)
            except asyncio.TimeoutError:
                await self._kill()
                raise LintTimeout(_took_too_long(limit)) from None
            except (asyncio.IncompleteReadError, BrokenPipeError, ConnectionResetError, struct.error):
                code = await self._reap()
                if out_of_time(code):
                    raise LintTimeout(_took_too_long(limit)) from None
                if attempt == 2:
                    raise LintStopped(_died(code)) from None
                # once more with a fresh process: the first may have been killed from outside
                log.warning("lint process died (%s); restarting it", _died(code))
        raise AssertionError("unreachable")

    def forget(self, key: str) -> None:
        self.notify("forget", {"key": key})

    def notify(self, op: str, payload: dict[str, Any]) -> None:
        """A request without a reply (queued behind the one in progress, if any)."""
        proc = self._proc
        if proc is None or proc.returncode is not None or proc.stdin is None:
            return
        try:
            proc.stdin.write(frame((0, op, payload)))
        except (BrokenPipeError, ConnectionResetError, RuntimeError):
            pass

    async def _reap(self) -> int | None:
        """The exit status of a process whose pipe closed (it is killed if it lingers)."""
        proc = self._proc
        if proc is None:
            return None
        try:
            await asyncio.wait_for(proc.wait(), 5)
        except asyncio.TimeoutError:
            pass
        code = proc.returncode
        await self._kill()
        return code

    async def _kill(self) -> None:
        proc, self._proc = self._proc, None
        if proc is None or proc.returncode is not None:
            return
        proc.kill()
        try:
            await asyncio.wait_for(proc.wait(), 5)
        except asyncio.TimeoutError:  # pragma: no cover - a zombie we cannot reap
            log.error("lint process %s did not exit", proc.pid)

    async def close(self) -> None:
        # Killed, not asked: it holds nothing worth saving, and a graceful interpreter exit
        # would add a few hundred ms to every editor shutdown.
        self.closed = True
        await self._kill()

    def kill_now(self) -> None:
        """Synchronous last resort at interpreter exit."""
        proc = self._proc
        if proc is not None and proc.returncode is None:
            try:
                proc.kill()
            except ProcessLookupError:
                pass


def _took_too_long(limit: float | None) -> str:
    return (f"checking took longer than {limit:.3g} s and was stopped (a very large or deeply nested buffer?); "
            "the next edit is checked again")


def _died(code: int | None) -> str:
    if code is not None and code < 0:
        why = "it ran out of memory, or was killed" if killed_outright(code) else "a crash in the parser"
        return f"the lint process was killed by {signal_name(code)} while checking it ({why}); the next edit is checked by a fresh one"
    return f"the lint process exited unexpectedly (status {code}); the next edit is checked by a fresh one"


class LintPool:
    """Up to `size` lint processes behind one interface (see the module docstring)."""

    def __init__(self, python: str | None = None, size: int = MAX_PROCESSES) -> None:
        self.python = python
        self.size = size
        self.processes: list[LintProcess] = [LintProcess(python)]
        self._home: dict[str, LintProcess] = {}  # where each document's units are cached

    async def start(self) -> None:
        await self.processes[0].start()

    def _pick(self, key: str | None) -> LintProcess:
        home = self._home.get(key) if key is not None else None
        if home is not None and not home.busy:
            return home
        free = next((p for p in self.processes if not p.busy), None)
        if free is None and len(self.processes) < self.size:
            free = LintProcess(self.python)
            self.processes.append(free)
            log.debug("every lint process is busy: starting another")
        # all busy: queue where the fewest wait, and of those behind the most recent start (a
        # process that has been busy for long may be stuck on a heavy buffer)
        proc = free or min(self.processes, key=lambda p: (p.pending, -p.since))
        if key is not None and proc is not home:
            if home is not None:
                home.forget(key)  # its cached units would only go stale there
            self._home[key] = proc
        return proc

    async def check(self, key: str, path: str, config: Config, text: str, limit: float | None = None,
                    project: dict | None = None) -> tuple[list[Diagnostic], float, list[str]]:
        """(diagnostics, seconds, the project files the check read). `project`: None (the
        buffer on its own), or {"roots": [...], "texts": {path: unsaved buffer}}."""
        payload = {"key": key, "path": path, "config": config, "text": text, "limit": limit, "project": project}
        return await self._pick(key).request("check", payload)

    def files_changed(self, paths: list[str] | None) -> None:
        """Files changed on disk: every lint process reads them (and the project roots) again."""
        for p in self.processes:
            p.notify("files", {"paths": paths})

    async def fix(self, path: str, config: Config, text: str, limit: float | None = None) -> tuple[str, int]:
        return await self._pick(None).request("fix", {"path": path, "config": config, "text": text, "limit": limit})

    def forget(self, key: str) -> None:
        home = self._home.pop(key, None)
        if home is not None:
            home.forget(key)

    async def close(self) -> None:
        for p in self.processes:
            await p.close()

    def kill_now(self) -> None:
        for p in self.processes:
            p.kill_now()
