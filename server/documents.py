"""When to lint what: per-document debounce, coalescing and stale-result dropping.

Every change bumps the document's generation and (re)starts its debounce timer. When a timer
fires the document joins an ordered "dirty" set; one runner drains that set, checking the
newest text of each document. So a burst of 1,000 changes costs at most the check already
running plus one more, never 1,000 queued checks. A result whose generation is no longer
the document's (the text or the config changed while it ran) is dropped: only the newest
version is ever published.

Up to `concurrency` documents are checked at once (the linter has as many processes), never
one document twice at once. A document whose last check took longer than HEAVY_S is *heavy*,
and heavy documents take turns: one buffer that takes seconds (or runs into the time limit)
holds at most one lint process, and the other documents' diagnostics keep arriving.

The scheduler knows nothing of LSP: `run(key)` checks a document (it must read the document's
text before its first `await`, so that text and generation match) and `on_result` publishes.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from typing import Any
from collections.abc import Awaitable, Callable

# What the server checks: documents in these languages, files with these suffixes.
PYTHON_LANGUAGES = {"python", "py", "python3", "ipython"}
PYTHON_SUFFIXES = (".py", ".pyi", ".pyw", ".ipy")

log = logging.getLogger(__name__)

HEAVY_S = 1.0


class DocumentClosed(Exception):
    pass


@dataclass
class Result:
    gen: int
    payload: Any


@dataclass
class _Doc:
    gen: int = 0
    timer: asyncio.TimerHandle | None = None
    result: Result | None = None
    waiters: list[tuple[int, asyncio.Future]] = field(default_factory=list)
    heavy: bool = False  # its last check took longer than HEAVY_S

    @property
    def current(self) -> bool:
        return self.result is not None and self.result.gen == self.gen


class Scheduler:
    def __init__(
        self,
        run: Callable[[str], Awaitable[Any]],
        on_result: Callable[[str, Result], None],
        ready: asyncio.Event | None = None,
        concurrency: int = 1,
    ) -> None:
        self._run = run
        self._on_result = on_result
        self._ready = ready
        self.concurrency = concurrency
        self._docs: dict[str, _Doc] = {}
        self._dirty: dict[str, None] = {}  # an ordered set
        self._wake = asyncio.Event()
        self._running: dict[str, int] = {}  # document -> the generation being checked
        self._checks: set[asyncio.Task] = set()
        self._task: asyncio.Task | None = None

    # ------------------------------------------------------------------ lifecycle
    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.ensure_future(self._runner())

    async def stop(self) -> None:
        for key in list(self._docs):
            self.close(key)
        for task in [self._task, *self._checks]:
            if task is None:
                continue
            task.cancel()
            try:
                await task
            except (asyncio.CancelledError, Exception):
                pass
        self._task = None
        self._checks.clear()

    # ------------------------------------------------------------------ events
    def __contains__(self, key: str) -> bool:
        return key in self._docs

    def keys(self) -> list[str]:
        return list(self._docs)

    def touch(self, key: str, delay: float | None) -> None:
        """The document changed (or was opened, or its config changed). `delay`: seconds to
        wait for more changes before checking; None: only invalidate (a client that pulls
        diagnostics asks when it wants them)."""
        doc = self._docs.setdefault(key, _Doc())
        doc.gen += 1
        if doc.timer is not None:
            doc.timer.cancel()
            doc.timer = None
        if delay is None:
            return
        if delay <= 0:
            self._mark(key)
        else:
            doc.timer = asyncio.get_running_loop().call_later(delay, self._mark, key)

    def flush(self, key: str) -> None:
        """Check now if the newest generation is neither checked nor being checked."""
        doc = self._docs.get(key)
        if doc is None or doc.current or self._running.get(key) == doc.gen:
            return
        if doc.timer is not None:
            doc.timer.cancel()
        self._mark(key)

    def close(self, key: str) -> None:
        doc = self._docs.pop(key, None)
        self._dirty.pop(key, None)
        if doc is None:
            return
        if doc.timer is not None:
            doc.timer.cancel()
        for _, fut in doc.waiters:
            if not fut.done():
                fut.set_exception(DocumentClosed(key))
                fut.exception()  # a waiter that went away must not warn "never retrieved"

    def latest(self, key: str) -> Result | None:
        """The newest result, if it is for the newest generation."""
        doc = self._docs.get(key)
        return doc.result if doc is not None and doc.current else None

    async def current(self, key: str) -> Result:
        """The result for the newest generation, checking now if needed. If the document
        changes meanwhile, the result of a later generation is returned."""
        doc = self._docs.get(key)
        if doc is None:
            raise DocumentClosed(key)
        if doc.current:
            assert doc.result is not None
            return doc.result
        fut: asyncio.Future = asyncio.get_running_loop().create_future()
        doc.waiters.append((doc.gen, fut))
        self.flush(key)
        return await fut

    # ------------------------------------------------------------------ the runner
    def _mark(self, key: str) -> None:
        doc = self._docs.get(key)
        if doc is None:
            return
        doc.timer = None
        self._dirty[key] = None
        self._wake.set()

    async def _runner(self) -> None:
        if self._ready is not None:
            await self._ready.wait()
        while True:
            await self._wake.wait()
            self._wake.clear()
            self._launch()

    def _launch(self) -> None:
        """Start checks of dirty documents while there is room (see the module docstring)."""
        for key in list(self._dirty):
            if len(self._running) >= self.concurrency:
                return
            if key in self._running:
                continue  # its newer version is checked when the running check ends
            doc = self._docs.get(key)
            if doc is None or doc.current:
                del self._dirty[key]
                continue
            if doc.heavy and any(self._docs[k].heavy for k in self._running if k in self._docs):
                continue  # heavy documents take turns
            del self._dirty[key]
            self._running[key] = doc.gen
            task = asyncio.ensure_future(self._check(key, doc))
            self._checks.add(task)
            task.add_done_callback(self._checks.discard)

    async def _check(self, key: str, doc: _Doc) -> None:
        gen = self._running[key] = doc.gen  # `run` reads the text before its first await
        loop = asyncio.get_running_loop()
        started = loop.time()
        try:
            payload = await self._run(key)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("checking %s failed", key)
            payload = None
        finally:
            del self._running[key]
            self._wake.set()  # room for the next one
        doc.heavy = loop.time() - started > HEAVY_S
        if self._docs.get(key) is not doc:
            return  # closed meanwhile
        if doc.gen != gen:
            # stale: the newer generation is dirty or waiting for its timer, unless it was
            # only invalidated (pull mode) - then someone waiting needs it now
            if doc.waiters:
                self.flush(key)
            return
        doc.result = Result(gen, payload)
        try:
            self._on_result(key, doc.result)
        except Exception:
            log.exception("publishing %s failed", key)
        still = []
        for wanted, fut in doc.waiters:
            if wanted <= gen:
                if not fut.done():
                    fut.set_result(doc.result)
            else:
                still.append((wanted, fut))
        doc.waiters = still
