"""The `gradlint.trace` command and the "Trace this script" code action: run `gradlint trace`
on a saved file in the workspace's interpreter, then show what it found as diagnostics.

Like the gradient check (gradcheck.py) it runs the workspace's code: only when the user asks,
never with `dynamicChecks` off (the editor turns it off for an untrusted workspace), and only
through gradlint.trace.runner, in a child process with the gradient check's isolation. The
server imports no framework.

A trace's findings belong to the text that ran. When a file is edited, each finding follows
its line (the same text at the same place, or found once within a few lines) and is dropped
when its line is gone or changed; a new trace replaces them all.
"""

from __future__ import annotations

import asyncio
import logging
import os
import re
import threading
import uuid
from dataclasses import dataclass, replace
from typing import Any

from lsprotocol import types
from pygls.exceptions import JsonRpcInvalidParams
from pygls.uris import from_fs_path, to_fs_path

from gradlint.diagnostics import Diagnostic, Position
from gradlint.limits import read_regular
from gradlint.source import split_lines

from .convert import to_lsp
from .gradcheck import GradcheckService, _acquire_unless, _in_thread, _summary
from .positions import LineIndex
from .protocol import WORK_DONE_TOKEN

log = logging.getLogger(__name__)

TRACE_COMMAND = "gradlint.trace"
TRACE_KIND = ""  # shown in every code-action menu, like "Check gradients of NAME"
TITLE = "Trace this script"
SEARCH = 20  # lines a finding may move and still be recognised
# a program worth tracing: a __main__ block, or a training loop (backward and a step)
_MAIN = re.compile(r"^if\s+__name__\s*==\s*['\"]__main__['\"]", re.M)
_TRAINS = re.compile(r"\.backward\(|\.apply_gradients\(|GradientTape")


def traceable(text: str) -> bool:
    if _MAIN.search(text) or "GradientTape" in text:
        return True
    return bool(_TRAINS.search(text)) and ".step(" in text


@dataclass
class Located:
    diag: Diagnostic
    line_text: str  # the finding's line as traced


class TraceService:
    def __init__(self, host: Any) -> None:
        self.host = host
        self.by_path: dict[str, list[Located]] = {}
        self.last_report: dict | None = None
        self.epoch = 0
        self._running: set[threading.Event] = set()
        self._lock = asyncio.Lock()

    # ------------------------------------------------------------------ the command
    async def run(self, args: tuple) -> dict:
        spec = args[0] if len(args) == 1 and isinstance(args[0], dict) else {"uri": args[0]} if args else {}
        uri = spec.get("uri")
        if not isinstance(uri, str):
            raise JsonRpcInvalidParams.of('expected [{"uri": "file:///.../train.py", "steps": 3}]')
        steps = spec.get("steps", 3)
        if isinstance(steps, bool) or not isinstance(steps, int) or steps < 1:
            raise JsonRpcInvalidParams.of('"steps" must be a positive integer')
        settings = self.host.settings
        if not settings.dynamic_checks:
            msg = ("gradlint: tracing is off in this workspace (dynamicChecks: false) — it runs the workspace's "
                   "code; trust the workspace to enable it")
            self.host.show(types.MessageType.Warning, msg)
            return {"status": "refused", "message": msg}
        path = to_fs_path(uri) if uri.startswith("file:") else None
        if path is None or self.host.is_notebook_cell(uri) or not os.path.isfile(path):
            msg = "gradlint: save the script as a .py file to trace it (the trace runs the saved file)"
            self.host.show(types.MessageType.Warning, msg)
            return {"status": "refused", "message": msg}
        request = {"script": path, "args": [str(a) for a in spec.get("args") or []],
                   "cwd": self.host.workspace_dir(path), "steps": steps}
        name = os.path.basename(path)
        doc = self.host.document_text(uri)
        unsaved = doc is not None and GradcheckService._unsaved(path, doc[0])
        report = await self._execute(request, settings, name)
        self.last_report = report
        if (report.get("error") or {}).get("kind") == "cancelled":
            # the previous trace's findings stay: this one saw nothing
            self.host.show(types.MessageType.Info, f"gradlint: trace of {name} cancelled")
            return report
        self._store(report)
        from gradlint.trace.cli import describe

        failed, line = describe(report)
        n = len(report.get("findings") or [])
        kind = types.MessageType.Warning if failed or n else types.MessageType.Info
        found = f"{n} finding{'s' if n != 1 else ''}" if n else "nothing found"
        note = " (traced the saved file; the buffer has unsaved changes)" if unsaved else ""
        self.host.show(kind, f"gradlint trace of {name}: {found}; {_summary(line)}{note}")
        return report

    async def _execute(self, request: dict, settings, name: str) -> dict:
        from gradlint.trace.runner import run_trace

        cancel = threading.Event()
        self._running.add(cancel)
        protocol = self.host.protocol
        outer = protocol.request_future(protocol.msg_id)
        if outer is not None:
            outer.add_done_callback(lambda f: cancel.set() if f.cancelled() else None)
        token = await self._begin_progress(name, cancel)
        progress = self.host.work_done_progress
        report: dict[str, Any]
        try:
            # one trace at a time: each starts a process that imports torch; a trace waiting
            # for the running one can be cancelled
            if self._lock.locked() and token is not None:
                progress.report(token, types.WorkDoneProgressReport(message="waiting for the running trace to finish"))
            if not await _acquire_unless(self._lock, cancel):
                report = {"status": "error", "findings": [], "notes": [],
                          "error": {"kind": "cancelled", "message": "the trace was cancelled before it started"}}
            else:
                try:
                    if token is not None:
                        progress.report(token, types.WorkDoneProgressReport(message="running the program"))
                    report = await _in_thread(lambda: run_trace(request, python=settings.python,
                                                                timeout=settings.gradcheck_timeout, cancel=cancel))
                finally:
                    self._lock.release()
        except Exception as exc:  # the runner failed: say so, keep serving
            log.exception("trace of %s failed", name)
            report = {"status": "error", "findings": [], "error": {"kind": "internal", "message": f"{exc}"}}
        finally:
            self._running.discard(cancel)
        if token is not None:
            cancelled = (report.get("error") or {}).get("kind") == "cancelled"
            n = len(report.get("findings") or [])
            end = "cancelled" if cancelled else f"{report.get('status')}: {n} finding{'s' if n != 1 else ''}"
            progress.end(token, types.WorkDoneProgressEnd(message=end))
            progress.tokens.pop(token, None)
        return report

    async def _begin_progress(self, name: str, cancel: threading.Event) -> types.ProgressToken | None:
        """Progress on the client's `workDoneToken` if the command came with one, else on a
        token created here (when the client can show progress); cancelling it stops the trace."""
        progress = self.host.work_done_progress
        token = WORK_DONE_TOKEN.get()
        if token is None and self.host.client.work_done_progress:
            token = f"gradlint-trace-{uuid.uuid4().hex}"
            try:
                await progress.create_async(token)
            except Exception as exc:  # noqa: BLE001
                log.info("no progress for the trace: %s", exc)
                token = None
        if token is None:
            return None
        progress.begin(token, types.WorkDoneProgressBegin(
            title=f"Tracing {name}", cancellable=True, message="starting"))
        fut = progress.tokens.get(token)
        if fut is not None:
            fut.add_done_callback(lambda f: cancel.set() if f.cancelled() else None)
        return token

    def _store(self, report: dict) -> None:
        from gradlint.trace.results import to_diagnostics

        old = set(self.by_path)
        self.by_path = {}
        for f in report.get("findings") or []:
            path = f["path"]
            config = self.host.configs.config_for(path, self.host.settings, self.host.root_dir)
            for d in to_diagnostics({"findings": [f]}, config):
                self.by_path.setdefault(os.path.realpath(path), []).append(Located(d, _line_of(path, d.start.line)))
        self.epoch += 1
        for path in old | set(self.by_path):
            uri = from_fs_path(path)
            if uri and self.host.key_of(uri) in self.host.scheduler:  # open documents: publish again
                self.host.verdicts_changed(uri)

    # ------------------------------------------------------------------ results
    def diagnostics(self, uri: str, text: str, index: LineIndex, version: int | None = None) -> list[types.Diagnostic]:
        path = to_fs_path(uri) if uri.startswith("file:") else None
        found = self.by_path.get(os.path.realpath(path)) if path else None
        if not found:
            return []
        lines = split_lines(text)  # Python's lines, as the traced frames count them
        out = []
        for loc in found:
            line = _relocate(lines, loc.diag.start.line, loc.line_text)
            if line is None:
                continue
            d = loc.diag
            if line != d.start.line:
                shift = line - d.start.line
                d = replace(d, start=Position(line, d.start.column), end=Position(d.end.line + shift, d.end.column))
            item = to_lsp(d, index, uri, version, self.host.client.related_information)
            item.data = {**(item.data or {}), "trace": True}
            out.append(item)
        return out

    def show_report(self) -> dict | None:
        return self.last_report

    async def shutdown(self) -> None:
        for event in list(self._running):
            event.set()


def _line_of(path: str, line: int) -> str:
    try:
        # a finding's file is the workspace's: a FIFO there must not block the server
        lines = split_lines(read_regular(path)[0].decode("utf-8"))
    except (OSError, UnicodeDecodeError):
        return ""
    return lines[line - 1] if 0 < line <= len(lines) else ""


def _relocate(lines: list[str], line: int, text: str) -> int | None:
    """Where the traced line `text` (once at `line`) is now; None when it changed or is gone."""
    if 0 < line <= len(lines) and lines[line - 1] == text:
        return line
    near = [i + 1 for i in range(max(0, line - 1 - SEARCH), min(len(lines), line + SEARCH)) if lines[i] == text]
    return near[0] if len(near) == 1 and text.strip() else None


def trace_action(view, client, enabled: bool, rng: types.Range | None = None) -> types.CodeAction | None:
    """"Trace this script" on a saved .py file that has a __main__ block or a training loop, for
    any range inside it (a range past its end is a stale request, answered with nothing)."""
    if view.notebook_cell or view.path is None or not traceable(view.text):
        return None
    if rng is not None and rng.start.line >= len(split_lines(view.text)):
        return None
    if not enabled:
        if not client.disabled_actions:
            return None
        return types.CodeAction(title=TITLE, kind=TRACE_KIND, disabled=types.CodeActionDisabled(
            reason="tracing runs your code: it is off in this workspace (dynamicChecks: false)"))
    return types.CodeAction(title=TITLE, kind=TRACE_KIND,
                            command=types.Command(title=TITLE, command=TRACE_COMMAND, arguments=[{"uri": view.uri}]))
