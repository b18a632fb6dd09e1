"""The gradlint language server: pygls wiring from LSP messages to the modules that do the work.

    didOpen/didChange/didSave ─► documents.Scheduler (debounce, coalesce) ─► linter (process)
         ─► Checked per document/cell ─► push publishDiagnostics  or  answer textDocument/diagnostic
    codeAction / resolve / hover ─► actions.py / hover.py on the checked text
    workspace/executeCommand gradlint.gradcheck ─► gradcheck.py (dynamic worker, progress)
    workspace/executeCommand gradlint.trace ─► trace.py (a traced run; findings in every file)
    project mode: each check reads the project modules its document imports; dependents.py
      remembers which, so that an edit (or a change on disk) re-checks the open dependents
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from gradlint import __version__
from gradlint.diagnostics import Diagnostic
from gradlint.limits import read_regular
from gradlint.notebook.cells import CellsCheck
from gradlint.rules.meta import io_error
from gradlint.source import DecodeError, decode_source

from . import actions, settings as settings_mod
from .client import ClientFeatures
from .convert import server_diagnostic, to_lsp
from .dependents import ProjectDocuments
from .documents import PYTHON_LANGUAGES, PYTHON_SUFFIXES, DocumentClosed, Result, Scheduler
from .gradcheck import GradcheckService
from .linter import LintError, LintPool, LintStopped, limit_for
from .positions import LineIndex
from .project import ProjectConfigs
from .protocol import GradlintProtocol
from .settings import Settings
from . import targets as targets_mod
from .trace import TraceService

log = logging.getLogger(__name__)
timing_log = logging.getLogger("gradlint_server.timing")  # not forwarded to the client

NOTEBOOK_SYNC = types.NotebookDocumentSyncOptions(
    notebook_selector=[
        types.NotebookDocumentFilterWithNotebook(notebook="jupyter-notebook", cells=[types.NotebookCellLanguage(language="python")]),
        types.NotebookDocumentFilterWithNotebook(
            notebook=types.NotebookDocumentFilterPattern(pattern="**/*.ipynb"), cells=[types.NotebookCellLanguage(language="python")]
        ),
    ],
    save=True,
)
MAX_MASKED_CELLS = 5
PARENT_POLL_S = 3.0


@dataclass
class DocResult:
    """One document's (or cell's) check: the exact text checked and what was found in it."""

    text: str
    version: int | None
    diagnostics: list[Diagnostic]
    extra: list[types.Diagnostic] = field(default_factory=list)  # about the check itself
    encoding: str = "utf-16"
    _index: LineIndex | None = None

    @property
    def index(self) -> LineIndex:
        if self._index is None:
            self._index = LineIndex(self.text, self.encoding)
        return self._index


@dataclass
class Checked:
    docs: dict[str, DocResult]  # by document URI (one for a file, one per cell for a notebook)
    engine_ms: float = 0.0  # in the lint process
    roundtrip_ms: float = 0.0  # from handing the text over to having the diagnostics back


@dataclass
class _Job:
    key: str
    path: str | None  # file system path (None: unsaved buffer)
    engine_path: str
    config: Any
    docs: list[tuple[str, str, int | None]]  # (uri, text, version); several: notebook cells
    notebook: bool = False
    cell_numbers: dict[str, int] = field(default_factory=dict)  # a cell's place among all cells, 1-based


def fs_path(uri: str) -> str | None:
    if not uri.startswith("file:"):
        return None
    try:
        return to_fs_path(uri)
    except Exception:
        return None


class GradlintServer(LanguageServer):
    def __init__(self, pool_factory=None) -> None:
        super().__init__(
            "gradlint", __version__,
            text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
            notebook_document_sync=NOTEBOOK_SYNC,
            protocol_cls=GradlintProtocol,
        )
        self.init_options: Any = None
        self.config_section: Any = None
        self.settings = Settings()
        self.client = ClientFeatures()
        self.configs = ProjectConfigs(report=lambda m: self.show(types.MessageType.Error, m))
        self.projects = ProjectDocuments()
        self.linter = LintPool()
        self.ready = asyncio.Event()
        # as many documents at once as there are lint processes: one heavy buffer holds one
        self.scheduler = Scheduler(self._run_check, self._on_result, self.ready, concurrency=self.linter.size)
        self.gradcheck = GradcheckService(self, pool_factory)
        self.trace = TraceService(self)
        self.session = None
        self._published: dict[str, set[str]] = {}
        self._reported_settings: set[str] = set()
        self._targets: dict[str, tuple[str, list]] = {}
        self._background: set[asyncio.Task] = set()
        self._closing = False
        # pull result ids must not collide with those of an earlier server the client talked to
        self.session_id = os.urandom(4).hex()

    # ------------------------------------------------------------------ small services
    def show(self, kind: types.MessageType, message: str) -> None:
        self.window_show_message(types.ShowMessageParams(type=kind, message=message))

    def report_server_error(self, error, source) -> None:
        # pygls would pop up "Error in server" for every malformed message; the log is enough
        log.error("%s: %s", getattr(source, "__name__", source), error)

    def spawn(self, coro) -> None:
        """Run `coro` in the background; a failure is logged, not lost."""
        task = asyncio.ensure_future(coro)
        self._background.add(task)

        def done(t: asyncio.Task) -> None:
            self._background.discard(t)
            if not t.cancelled() and t.exception() is not None:
                log.error("background task failed: %r", t.exception())

        task.add_done_callback(done)

    @property
    def root_dir(self) -> Path | None:
        try:
            root = self.workspace.root_path
        except RuntimeError:
            return None
        return Path(root) if root else None

    def workspace_dir(self, path: str) -> str:
        p = Path(path)
        for folder in self.workspace.folders.values():
            f = fs_path(folder.uri)
            if f and (p == Path(f) or Path(f) in p.parents):
                return f
        root = self.root_dir
        if root is not None and root in p.parents:
            return str(root)
        return str(p.parent)

    def _open_doc(self, uri: str):
        return self.workspace.text_documents.get(unquote(uri))

    def is_notebook_cell(self, uri: str) -> bool:
        return self.workspace.get_notebook_document(cell_uri=uri) is not None

    def key_of(self, uri: str) -> str:
        nb = self.workspace.get_notebook_document(cell_uri=uri)
        return nb.uri if nb is not None else uri

    def document_text(self, uri: str) -> tuple[str, int | None, bool] | None:
        doc = self._open_doc(uri)
        if doc is not None:
            return doc.source, doc.version, True
        path = fs_path(uri)
        if path is None:
            return None
        try:
            return decode_source(read_regular(path)[0]), None, False  # a FIFO must not block the server
        except (OSError, DecodeError):
            return None

    # ------------------------------------------------------------------ settings
    def apply_settings(self) -> None:
        self.settings = settings_mod.from_sources(self.init_options, self.config_section)
        for problem in self.settings.problems:
            if problem not in self._reported_settings:
                self._reported_settings.add(problem)
                self.show(types.MessageType.Warning, problem)

    async def fetch_configuration(self) -> None:
        if not self.client.configuration:
            return
        try:
            result = await asyncio.wait_for(
                self.workspace_configuration_async(types.ConfigurationParams(items=[types.ConfigurationItem(section="gradlint")])),
                5.0,
            )
        except Exception as exc:
            log.warning("workspace/configuration failed: %s", exc)
            return
        if result:
            self.config_section = result[0]

    def invalidate_all(self) -> None:
        """The configuration changed: every open document is re-checked (push) or the client
        is asked to pull again."""
        if self.client.pull_diagnostics:
            for key in self.scheduler.keys():
                self.scheduler.touch(key, None)
            if self.client.diagnostic_refresh:
                self.workspace_diagnostic_refresh(None)
        else:
            for key in self.scheduler.keys():
                self.scheduler.touch(key, 0)

    # ------------------------------------------------------------------ checking
    def _job(self, key: str) -> _Job | None:
        nb = self.workspace.get_notebook_document(notebook_uri=key)
        if nb is not None:
            docs = []
            numbers = {}
            for number, cell in enumerate(nb.cells, 1):
                numbers[cell.document] = number
                if cell.kind != types.NotebookCellKind.Code:
                    continue
                doc = self._open_doc(cell.document)
                if doc is None or (doc.language_id and doc.language_id not in PYTHON_LANGUAGES):
                    continue
                docs.append((cell.document, doc.source, doc.version))
            path = fs_path(nb.uri)
            engine_path = path or "notebook.ipynb"
            config = self.configs.config_for(path, self.settings, self.root_dir)
            return _Job(key, path, engine_path, config, docs, notebook=True, cell_numbers=numbers)
        doc = self._open_doc(key)
        if doc is None:
            return None
        path = fs_path(key)
        engine_path = path or (doc.filename or "untitled.py")
        return _Job(key, path, engine_path, self.configs.config_for(path, self.settings, self.root_dir), [(doc.uri, doc.source, doc.version)])

    def _too_large(self, size: int) -> types.Diagnostic:
        return server_diagnostic(
            f"gradlint: not checked — {size:,} characters is more than maxFileSize ({self.settings.max_file_size:,})",
        )

    async def _engine(self, key: str, job: _Job, text: str, timing: Checked | None = None) -> tuple[list[Diagnostic], list[types.Diagnostic]]:
        if len(text) > self.settings.max_file_size:
            return [], [self._too_large(len(text))]
        project = None
        texts: dict[str, str] = {}
        if self.settings.project and job.path is not None:
            # analysed in its project: the workspace folder is an import root, and the unsaved
            # buffers stand in for their files
            texts = self.projects.texts_for(job.path)
            project = {"roots": [self.workspace_dir(job.path)], "texts": texts}
        try:
            t0 = time.perf_counter()
            limit = limit_for(text, self.settings.file_timeout)
            diags, seconds, deps = await self.linter.check(key, job.engine_path, job.config, text, limit, project)
            if timing is not None:
                timing.engine_ms += seconds * 1000
                timing.roundtrip_ms += (time.perf_counter() - t0) * 1000
            if project is not None:
                diags, changed = self.projects.record(key, job.path, deps, diags, texts)
                if changed:
                    self._republish(changed, but=key)
            else:
                diags = [d for d in diags if job.path is None or d.path == job.engine_path]
            return diags, []
        except LintError as exc:
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            log.error("checking %s failed: %s", key, exc)
            if isinstance(exc, LintStopped):
                return [], [server_diagnostic(f"gradlint: not checked — {first}", types.DiagnosticSeverity.Warning)]
            return [], [server_diagnostic(f"gradlint could not check this file: {first}", types.DiagnosticSeverity.Warning)]

    async def _run_check(self, key: str) -> Checked | None:
        job = self._job(key)  # read the text before any await (the scheduler's contract)
        if job is None:
            return None
        enc = self.client.encoding
        checked = Checked({})
        if not job.notebook:
            uri, text, version = job.docs[0]
            diags, extra = await self._engine(key, job, text, checked)
            checked.docs[uri] = DocResult(text, version, diags, extra, enc)
            return checked
        # the cells as one module (gradlint.notebook.cells, shared with `gradlint check`)
        numbers = job.cell_numbers
        run = CellsCheck([(uri, text) for uri, text, _ in job.docs], MAX_MASKED_CELLS, lambda uri: str(numbers.get(uri, "?")))  # type: ignore[call-overload]
        while True:
            diags, extra = await self._engine(key, job, run.joined.text, checked)
            if run.feed(diags):
                break
        for i, (uri, text, version) in enumerate(job.docs):
            checked.docs[uri] = DocResult(text, version, run.result.get(uri, []), extra if i == 0 else [], enc)
        return checked

    def lsp_diagnostics(self, uri: str, dr: DocResult) -> list[types.Diagnostic]:
        found = dr.diagnostics
        if self.settings.project and self.key_of(uri) == uri:
            # what the checks of the documents that import this one found in it
            own = {(d.code, d.start, d.end) for d in found}
            found = found + [d for d in self.projects.found_in(fs_path(uri), dr.text) if (d.code, d.start, d.end) not in own]
        items = [to_lsp(d, dr.index, uri, dr.version, self.client.related_information) for d in found]
        items += dr.extra
        items += [d for _, d in self.gradcheck.diagnostics(uri, dr.text, dr.index)]
        items += self.trace.diagnostics(uri, dr.text, dr.index, dr.version)
        return items

    def _publish(self, uri: str, version: int | None, items: list[types.Diagnostic]) -> None:
        self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=items, version=version))

    def _on_result(self, key: str, result: Result) -> None:
        if self.client.pull_diagnostics or self._closing:
            return
        checked: Checked | None = result.payload
        if checked is None:
            return
        t0 = time.perf_counter()
        before = self._published.get(key, set())
        for uri, dr in checked.docs.items():
            self._publish(uri, dr.version, self.lsp_diagnostics(uri, dr))
        for uri in before - checked.docs.keys():
            self._publish(uri, None, [])  # a cell that went away or stopped being code
        self._published[key] = set(checked.docs)
        if timing_log.isEnabledFor(logging.DEBUG):
            versions = ",".join(str(dr.version) for dr in checked.docs.values())
            timing_log.debug("published %s v%s: engine %.1f ms, round trip %.1f ms, publish %.1f ms",
                             key, versions, checked.engine_ms, checked.roundtrip_ms, (time.perf_counter() - t0) * 1000)

    # ------------------------------------------------------------------ the project
    def document_opened(self, key: str) -> None:
        path = fs_path(key)
        doc = self._open_doc(key)
        if not self.settings.project or path is None or doc is None:
            return
        try:
            on_disk = decode_source(read_regular(path)[0])
        except (OSError, DecodeError):
            on_disk = None
        self.projects.opened(path, doc.source, on_disk)

    def document_edited(self, key: str) -> None:
        """A buffer changed: the open documents whose last check read its file are checked
        again (with the new text standing in for the file)."""
        path = fs_path(key)
        doc = self._open_doc(key)
        if not self.settings.project or path is None or doc is None:
            return
        self.projects.edited(path, doc.source)
        self._recheck(self.projects.dependents([path], but=key))

    def files_changed(self, paths: list[str], created_or_deleted: bool) -> None:
        """Files changed on disk (the client's watcher): the lint processes read them again;
        the documents that read them are checked again (all of them when a file appeared or
        went: an import may resolve elsewhere now)."""
        if not self.settings.project:
            return
        self.linter.files_changed(paths)
        if created_or_deleted:
            self._recheck(self.scheduler.keys())
        else:
            self._recheck(self.projects.dependents(paths))

    def _recheck(self, keys: list[str]) -> None:
        keys = [k for k in keys if k in self.scheduler]
        if not keys:
            return
        if self.client.pull_diagnostics:
            for k in keys:
                self.scheduler.touch(k, None)
            if self.client.diagnostic_refresh:
                self.workspace_diagnostic_refresh(None)
            return
        for k in keys:
            self.scheduler.touch(k, self.settings.debounce)

    def _republish(self, paths: set[str], but: str | None = None) -> None:
        """Findings made in these files by other documents' checks changed: publish the open
        documents at those paths again (pull clients are asked to pull)."""
        wanted = {os.path.abspath(p) for p in paths}
        keys = [k for k in self.scheduler.keys() if k != but and (fs_path(k) or "") and os.path.abspath(fs_path(k) or "") in wanted]
        if not keys:
            return
        if self.client.pull_diagnostics:
            if self.client.diagnostic_refresh:
                self.workspace_diagnostic_refresh(None)
            return
        for k in keys:
            latest = self.scheduler.latest(k)
            if latest is not None:
                self._on_result(k, latest)

    def document_saved(self, key: str) -> None:
        path = fs_path(key)
        if path is not None:
            self.projects.saved(path)
        if key not in self.scheduler or self.client.pull_diagnostics:
            return
        latest = self.scheduler.latest(key)
        if latest is not None:
            self._on_result(key, latest)  # unchanged since checked: publish again, as on save
        else:
            self.scheduler.flush(key)

    def document_closed(self, key: str, uris: list[str]) -> None:
        if key not in self.scheduler:
            return  # never linted (not Python, or never opened)
        self.scheduler.close(key)
        self.linter.forget(key)
        path = fs_path(key)
        if self.projects.closed(path) and path is not None:
            # its unsaved text is gone: what read it reads the file again
            self._recheck(self.projects.dependents([path], but=key))
        changed = self.projects.forget(key)
        if changed:
            self._republish(changed)
        published = self._published.pop(key, set())
        for uri in uris:
            self.gradcheck.forget(uri)
            self._targets.pop(uri, None)
        if not self.client.pull_diagnostics:
            for uri in sorted(published | set(uris)):
                self._publish(uri, None, [])

    def verdicts_changed(self, uri: str) -> None:
        if self.client.pull_diagnostics:
            if self.client.diagnostic_refresh:
                self.workspace_diagnostic_refresh(None)
            return
        key = self.key_of(uri)
        latest = self.scheduler.latest(key)
        if latest is not None:
            self._on_result(key, latest)
        else:
            self.scheduler.flush(key)

    async def view(self, uri: str) -> actions.DocView | None:
        """The newest checked state of an open document (checking now if needed)."""
        key = self.key_of(uri)
        if key not in self.scheduler:
            return None
        try:
            result = await self.scheduler.current(key)
        except DocumentClosed:
            return None
        checked: Checked | None = result.payload
        dr = checked.docs.get(uri) if checked is not None else None
        if dr is None:
            doc = self._open_doc(uri)
            if doc is None:
                return None
            dr = DocResult(doc.source, doc.version, [], [], self.client.encoding)
        return actions.DocView(uri, dr.text, dr.version, dr.index, dr.diagnostics, fs_path(uri), notebook_cell=key != uri)

    def targets_of(self, uri: str, text: str) -> list:
        cached = self._targets.get(uri)
        if cached is not None and cached[0] == text:
            return cached[1]
        found = targets_mod.all_targets(text)
        self._targets[uri] = (text, found)
        return found

    async def disk_report(self, uri: str) -> list[types.Diagnostic]:
        """Pull diagnostics for a file the client never opened: read it from disk."""
        path = fs_path(uri)
        if path is None or not path.endswith(PYTHON_SUFFIXES) or not os.path.isfile(path):
            return []
        try:
            text = decode_source(read_regular(path)[0])
        except (OSError, DecodeError) as exc:
            return [to_lsp(io_error(path, f"cannot read the file: {exc}"), LineIndex("", self.client.encoding), uri, None)]
        config = self.configs.config_for(path, self.settings, self.root_dir)
        job = _Job("disk:" + uri, path, path, config, [(uri, text, None)])
        diags, extra = await self._engine(job.key, job, text)
        self.linter.forget(job.key)
        self.projects.forget(job.key)
        dr = DocResult(text, None, diags, extra, self.client.encoding)
        return self.lsp_diagnostics(uri, dr)

    # ------------------------------------------------------------------ lifecycle
    def can_watch(self, pid: int) -> bool:
        """Only over stdio and only for a process this one can see (a client in another PID
        namespace, or across TCP, sends a `processId` that means nothing here)."""
        return self.session is not None and self.session.stdio and _alive(pid)

    async def watch_parent(self, pid: int) -> None:
        """The editor died without closing our stdin (it happens): leave too."""
        while True:
            await asyncio.sleep(PARENT_POLL_S)
            if not _alive(pid):
                break
        log.info("the client process %s is gone; exiting", pid)
        if self.session is not None:
            self.session.stop(0)

    async def stop_work(self) -> None:
        self._closing = True
        await self.gradcheck.shutdown()
        await self.trace.shutdown()
        await self.scheduler.stop()

    async def cleanup(self) -> None:
        await self.stop_work()
        for task in list(self._background):
            task.cancel()
        await self.linter.close()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


__all__ = ["GradlintServer", "PYTHON_LANGUAGES", "PYTHON_SUFFIXES"]
