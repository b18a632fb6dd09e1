"""The `gradlint.gradcheck` command: run the dynamic gradient check of one target in the
workspace's interpreter, with cancellable progress, and keep the verdict and the report.

User code runs only here, only when the user asked (the code action / command), never when
`dynamicChecks` is false, and only through `gradlint.dynamic.worker` — which runs it in a child
process of the configured interpreter. The server itself never imports torch.

Cancellation: `window/workDoneProgress/cancel` on the progress token, or `$/cancelRequest` on
the command's request (pygls 2.1 answers that with "cancelled" but would leave the check
running), sets the event the worker watches; the worker kills the child's process group.
"""

from __future__ import annotations

import asyncio
import logging
import re
import threading
import uuid
from dataclasses import dataclass
from typing import Any
from collections.abc import Callable

from lsprotocol import types
from pygls.exceptions import JsonRpcInvalidParams
from pygls.uris import to_fs_path

from gradlint.limits import read_regular

from . import targets
from .convert import SOURCE
from .positions import LineIndex, to_units
from .protocol import WORK_DONE_TOKEN

log = logging.getLogger(__name__)

CODE = "gradcheck"
SEVERITY = {
    "pass": types.DiagnosticSeverity.Information,
    "fail": types.DiagnosticSeverity.Error,
    "inconclusive": types.DiagnosticSeverity.Warning,
    "error": types.DiagnosticSeverity.Warning,
}
MESSAGE_TYPE = {
    "pass": types.MessageType.Info,
    "fail": types.MessageType.Error,
    "inconclusive": types.MessageType.Warning,
    "error": types.MessageType.Warning,
}
HEADLINE = {
    "pass": "gradients OK",
    "fail": "gradients WRONG",
    "inconclusive": "gradient check inconclusive",
    "error": "gradient check could not run",
}


def default_pool() -> Any:
    from gradlint.dynamic.worker import WorkerPool  # imports no framework in this process

    return WorkerPool()


@dataclass
class Verdict:
    qualname: str
    verdict: str
    explanation: str
    digest: str  # of the target's source when checked: an edited body retires the verdict


SUMMARY_LIMIT = 400  # characters of the explanation in a diagnostic or a message; the report has all
_SENTENCE_END = re.compile(r"(?<!\be\.g)(?<!\bi\.e)[.!?](?=\s)")


def _summary(text: str, limit: int = SUMMARY_LIMIT, path: str | None = None) -> str:
    """The explanation on one line, without the absolute path of the file it is shown in, cut
    after the last whole sentence that fits (or, if the first one does not, at a word
    boundary) -- never mid-word."""
    text = " ".join((text or "").split())
    if path:
        text = text.replace(f"{path}::", "")
    if len(text) <= limit:
        return text
    ends = [m.end() for m in _SENTENCE_END.finditer(text, 0, limit)]
    if ends and ends[-1] >= limit // 3:
        return text[: ends[-1]] + " …"
    cut = text.rfind(" ", 0, limit)
    return text[: cut if cut > 0 else limit].rstrip(" ,;:") + " …"


def _in_thread(fn: Callable[[], Any]) -> asyncio.Future:
    """Run `fn` on a daemon thread: a check wedged in C code must not keep the server's
    process alive at exit (executor threads are joined at exit)."""
    loop = asyncio.get_running_loop()
    fut = loop.create_future()

    def settle(value: Any, exc: BaseException | None) -> None:
        if fut.done():
            return
        if exc is not None:
            fut.set_exception(exc)
        else:
            fut.set_result(value)

    def work() -> None:
        try:
            value = fn()
        except BaseException as exc:  # noqa: BLE001 - handed to the awaiting coroutine
            try:
                loop.call_soon_threadsafe(settle, None, exc)
            except RuntimeError:
                pass
            return
        try:
            loop.call_soon_threadsafe(settle, value, None)
        except RuntimeError:
            pass

    threading.Thread(target=work, name="gradcheck", daemon=True).start()
    return fut


class GradcheckService:
    """`host` is the language server: it provides settings, client features, documents,
    messages, progress, and `verdicts_changed(uri)` to re-publish."""

    def __init__(self, host: Any, pool_factory: Callable[[], Any] | None = None) -> None:
        self.host = host
        self._pool_factory = pool_factory or default_pool
        self._pool: Any = None
        self._pool_lock = threading.Lock()
        self._locks: dict[str, asyncio.Lock] = {}
        self._running: set[threading.Event] = set()
        self.verdicts: dict[str, dict[str, Verdict]] = {}
        self.reports: dict[tuple[str, str], dict] = {}
        self.last_report: dict | None = None
        self.epoch = 0  # bumped whenever verdicts change (pull result ids include it)

    # ------------------------------------------------------------------ arguments
    @staticmethod
    def parse_args(args: tuple) -> dict[str, Any]:
        if len(args) == 1 and isinstance(args[0], dict):
            spec = dict(args[0])
        elif 1 <= len(args) <= 2 and all(isinstance(a, str) for a in args):
            spec = {"uri": args[0], "target": args[1] if len(args) > 1 else None}
        else:
            raise JsonRpcInvalidParams.of('expected [{"uri": ..., "target": "path.py::name", "line": n}]')
        if not isinstance(spec.get("uri"), str):
            raise JsonRpcInvalidParams.of("the argument needs a document \"uri\"")
        if spec.get("target") is not None and not isinstance(spec["target"], str):
            raise JsonRpcInvalidParams.of("\"target\" must be a string like \"path.py::Class.method\"")
        if spec.get("line") is not None and (isinstance(spec["line"], bool) or not isinstance(spec["line"], int)):
            raise JsonRpcInvalidParams.of("\"line\" must be a 0-based line number")
        return spec

    # ------------------------------------------------------------------ the command
    async def run(self, args: tuple) -> dict:
        spec = self.parse_args(args)
        uri = spec["uri"]
        settings = self.host.settings
        if not settings.dynamic_checks:
            msg = ("gradlint: gradient checks are off in this workspace (dynamicChecks: false) — they "
                   "run the workspace's code; trust the workspace to enable them")
            self.host.show(types.MessageType.Warning, msg)
            return {"verdict": "refused", "explanation": msg, "target": spec.get("target") or ""}
        path = to_fs_path(uri) if uri.startswith("file:") else None
        if path is None or self.host.is_notebook_cell(uri):
            msg = "gradlint: save the code as a .py file to check its gradients (the check imports the saved file)"
            self.host.show(types.MessageType.Warning, msg)
            return {"verdict": "refused", "explanation": msg, "target": spec.get("target") or ""}
        doc = self.host.document_text(uri)
        if doc is None:
            raise JsonRpcInvalidParams.of(f"cannot read {uri}")
        text = doc[0]
        found = self.host.targets_of(uri, text)
        target = self._resolve(spec, text, found)
        if target is not None:
            qualname, options = target.qualname, targets.comment_options(text, target)
        elif spec.get("target"):
            # a name this module's outline does not offer (say `Net.forward`): the checker
            # may still resolve it, so pass it on
            qualname, options = spec["target"].rsplit("::", 1)[-1], {}
        else:
            raise JsonRpcInvalidParams.of(f"no function, method, nn.Module or autograd.Function around line {spec.get('line')} of {path}")
        for key in targets.COMMENT_KEYS:
            if spec.get(key) is not None:
                options[key] = spec[key]
        request = {
            "target": f"{path}::{qualname}",
            "inputs": options.get("inputs"),
            "against": options.get("against"),
            "dtype": options.get("dtype"),
            "seed": _seed(options.get("seed")),
            "constants": _names(options.get("constant")),
            "cwd": self.host.workspace_dir(path),
        }
        request = {k: v for k, v in request.items() if v is not None}  # absent, not null (schema)
        located = targets.locate(text, qualname)
        unsaved = self._unsaved(path, text)
        report = await self._execute(request, qualname, settings, unsaved)
        self.reports[(uri, qualname)] = report
        self.last_report = report
        verdict = str(report.get("verdict", "error"))
        if report.get("cancelled"):
            self.host.show(types.MessageType.Info, f"gradlint: gradient check of {qualname} cancelled")
            return report
        explanation = " ".join(str(report.get("explanation") or "").replace(f"{path}::", "").split())
        if located is not None:
            self.verdicts.setdefault(uri, {})[qualname] = Verdict(qualname, verdict, explanation, located.digest)
            self.epoch += 1
            self.host.verdicts_changed(uri)
        note = " (checked the saved file; the buffer has unsaved changes)" if unsaved else ""
        self.host.show(MESSAGE_TYPE.get(verdict, types.MessageType.Warning), f"gradlint: {qualname}: {HEADLINE.get(verdict, verdict)} — {_summary(explanation)}{note}")
        return report

    def _resolve(self, spec: dict, text: str, found: list[targets.Target]) -> targets.Target | None:
        name = spec.get("target")
        if name:
            qualname = name.rsplit("::", 1)[-1]
            return targets.find(text, qualname, found)
        if spec.get("line") is not None:
            return targets.target_at(text, spec["line"] + 1, found)
        return None

    @staticmethod
    def _unsaved(path: str, text: str) -> bool:
        try:
            # as read_text did (universal newlines), but a FIFO must not block the server
            saved = read_regular(path)[0].decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")
            return saved != text
        except (OSError, UnicodeDecodeError):
            return True

    def _pool_get(self, python: str) -> Any:
        with self._pool_lock:
            if self._pool is None:
                self._pool = self._pool_factory()
        return self._pool.get(python)

    async def _execute(self, request: dict, qualname: str, settings, unsaved: bool) -> dict:
        loop = asyncio.get_running_loop()
        cancel = threading.Event()
        self._running.add(cancel)
        protocol = self.host.protocol
        # $/cancelRequest cancels the future pygls answers this request from
        outer = protocol.request_future(protocol.msg_id)
        if outer is not None:
            outer.add_done_callback(lambda f: cancel.set() if f.cancelled() else None)
        token = await self._begin_progress(qualname, cancel)

        def report_progress(message: str) -> None:
            if token is not None:
                self.host.work_done_progress.report(token, types.WorkDoneProgressReport(message=str(message)[:200]))

        def on_progress(message: str) -> None:
            try:
                loop.call_soon_threadsafe(report_progress, message)
            except RuntimeError:
                pass

        python = settings.python
        lock = self._locks.setdefault(python, asyncio.Lock())
        try:
            if lock.locked():
                report_progress("waiting for the running check to finish")
            if not await _acquire_unless(lock, cancel):
                report = {"verdict": "error", "explanation": "cancelled", "cancelled": True}
            else:
                try:
                    report = await _in_thread(lambda: self._work(request, python, settings.gradcheck_timeout, cancel, on_progress))
                finally:
                    lock.release()
                if cancel.is_set():
                    report = {**report, "cancelled": True}
        except Exception as exc:  # the worker API failed: say so, keep serving
            log.exception("gradient check of %s failed", qualname)
            report = {"verdict": "error", "explanation": f"the check could not run: {type(exc).__name__}: {exc}", "target": request["target"]}
        finally:
            self._running.discard(cancel)
        report.setdefault("target", request["target"])
        if unsaved:
            report.setdefault("notes", [])
            if isinstance(report["notes"], list):
                report["notes"].append("the buffer had unsaved changes: the saved file was checked")
        if token is not None:
            end = "cancelled" if report.get("cancelled") else f"{report.get('verdict')}: {_summary(str(report.get('explanation', '')), 120, request['target'].rsplit('::', 1)[0])}"
            self.host.work_done_progress.end(token, types.WorkDoneProgressEnd(message=end))
            self.host.work_done_progress.tokens.pop(token, None)
        return report

    def _work(self, request: dict, python: str, timeout: float, cancel: threading.Event, progress: Callable[[str], None]) -> dict:
        try:
            worker = self._pool_get(python)
        except ImportError as exc:
            return {"verdict": "error", "explanation": f"gradient checks are not available in this installation ({exc})"}
        result = worker.run(request, timeout=timeout, cancel=cancel, progress=progress)
        if not isinstance(result, dict) or "verdict" not in result:
            return {"verdict": "error", "explanation": f"the checker returned an unexpected result: {result!r:.200}"}
        return result

    async def _begin_progress(self, qualname: str, cancel: threading.Event) -> types.ProgressToken | None:
        progress = self.host.work_done_progress
        token = WORK_DONE_TOKEN.get()
        if token is None and self.host.client.work_done_progress:
            token = f"gradlint-gradcheck-{uuid.uuid4().hex}"
            try:
                await progress.create_async(token)
            except Exception as exc:
                log.info("no progress for the check: %s", exc)
                token = None
        if token is None:
            return None
        progress.begin(token, types.WorkDoneProgressBegin(title=f"Checking gradients of {qualname}", cancellable=True, message="starting"))
        fut = progress.tokens.get(token)
        if fut is not None:
            fut.add_done_callback(lambda f: cancel.set() if f.cancelled() else None)
        return token

    # ------------------------------------------------------------------ results
    def show_report(self, args: tuple) -> dict | None:
        if not args:
            return self.last_report
        spec = args[0] if isinstance(args[0], dict) else {"uri": args[0], "target": args[1] if len(args) > 1 else None}
        uri, target = spec.get("uri"), spec.get("target")
        if not isinstance(uri, str):
            raise JsonRpcInvalidParams.of("expected [{\"uri\": ..., \"target\": name}]")
        if target:
            return self.reports.get((uri, str(target).rsplit("::", 1)[-1]))
        latest = [r for (u, _), r in self.reports.items() if u == uri]
        return latest[-1] if latest else None

    def diagnostics(self, uri: str, text: str, index: LineIndex) -> list[tuple[str, types.Diagnostic]]:
        """Verdict diagnostics on the def/class lines of `text`; a verdict whose target moved
        follows it, one whose target's code changed or vanished is retired."""
        verdicts = self.verdicts.get(uri)
        if not verdicts:
            return []
        out = []
        for qualname, v in list(verdicts.items()):
            where = targets.locate(text, qualname)
            if where is None or where.digest != v.digest:
                del verdicts[qualname]
                self.epoch += 1
                continue
            line = index.line(where.line - 1)
            rng = types.Range(
                start=types.Position(line=where.line - 1, character=to_units(line, where.start_col, index.encoding)),
                end=types.Position(line=where.line - 1, character=to_units(line, where.end_col, index.encoding)),
            )
            out.append(
                (qualname, types.Diagnostic(
                    range=rng,
                    message=f"{HEADLINE.get(v.verdict, v.verdict)}: {_summary(v.explanation) or v.verdict}",
                    severity=SEVERITY.get(v.verdict, types.DiagnosticSeverity.Warning),
                    code=CODE, source=SOURCE,
                    data={"gradcheck": {"uri": uri, "target": qualname, "verdict": v.verdict}},
                ))
            )
        return out

    def forget(self, uri: str) -> None:
        if self.verdicts.pop(uri, None):
            self.epoch += 1

    async def shutdown(self) -> None:
        for event in list(self._running):
            event.set()
        pool = self._pool
        self._pool = None
        if pool is None:
            return
        try:
            await asyncio.wait_for(_in_thread(pool.close), 5)
        except Exception as exc:
            log.warning("closing the worker pool: %s", exc)


async def _acquire_unless(lock: asyncio.Lock, cancel: threading.Event) -> bool:
    """Acquire `lock`, giving up if `cancel` is set meanwhile (checked every 0.2 s: the event
    is a threading.Event, set from pygls callbacks)."""
    task = asyncio.ensure_future(lock.acquire())
    while not task.done():
        if cancel.is_set():
            task.cancel()
            try:
                await task
            except asyncio.CancelledError:
                return False
            lock.release()  # it was acquired just before the cancel
            return False
        await asyncio.wait({task}, timeout=0.2)
    return True


def _names(value: Any) -> list[str] | None:
    """`constant=bank, w` (a comment) or ["bank", "w"] (a command argument) -> names."""
    items = value if isinstance(value, list) else [value] if isinstance(value, str) else []
    names = [n.strip() for item in items if isinstance(item, str) for n in item.split(",") if n.strip()]
    return names or None


def _seed(value: Any) -> int | None:
    if value is None or isinstance(value, int):
        return value
    try:
        return int(str(value).strip())
    except ValueError:
        return None

