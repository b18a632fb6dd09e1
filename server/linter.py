"""The server's side of the lint process (see lintworker.py for why it is a process).

One request at a time; a request that outlives `timeout` kills the process (the next request
starts a fresh one), and a process that died is restarted once per request.
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


class LintError(Exception):
    """The engine failed on a request (its message says why)."""


class LintTimeout(LintError):
    pass


class LintProcess:
    def __init__(self, python: str | None = None, timeout: float = 60.0) -> None:
        self.python = python or sys.executable
        self.timeout = timeout
        self._proc: asyncio.subprocess.Process | None = None
        self._lock = asyncio.Lock()
        self._next_id = 0
        self.closed = False

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

    async def _request(self, op: str, payload: dict[str, Any]) -> Any:
        # Shielded: a caller cancelled mid-read (e.g. a pull request the client gave up on)
        # must not leave half a reply in the pipe for the next request to trip over.
        task = asyncio.ensure_future(self._locked(op, payload))
        task.add_done_callback(lambda t: t.cancelled() or t.exception())  # retrieved if orphaned
        return await asyncio.shield(task)

    async def _locked(self, op: str, payload: dict[str, Any]) -> Any:
        async with self._lock:
            for attempt in (1, 2):
                try:
                    return await asyncio.wait_for(self._roundtrip(op, payload), self.timeout)
                except asyncio.TimeoutError:
                    await self._kill()
                    raise LintTimeout(f"checking took longer than {self.timeout:g} s and was stopped") from None
                except (asyncio.IncompleteReadError, BrokenPipeError, ConnectionResetError, struct.error) as exc:
                    await self._kill()
                    if attempt == 2:
                        raise LintError(f"the lint process died: {exc!r}") from None
                    log.warning("lint process died (%r); restarting it", exc)
        raise AssertionError("unreachable")

    async def check(self, key: str, path: str, config: Config, text: str) -> tuple[list[Diagnostic], float]:
        return await self._request("check", {"key": key, "path": path, "config": config, "text": text})

    async def fix(self, path: str, config: Config, text: str) -> tuple[str, int]:
        return await self._request("fix", {"path": path, "config": config, "text": text})

    def forget(self, key: str) -> None:
        proc = self._proc
        if proc is None or proc.returncode is not None or proc.stdin is None:
            return
        try:
            proc.stdin.write(frame((0, "forget", {"key": key})))
        except (BrokenPipeError, ConnectionResetError, RuntimeError):
            pass

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
