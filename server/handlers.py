"""The LSP methods the server answers, registered on a GradlintServer. Each handler is thin:
it validates what the client sent and hands over to the server's services."""

from __future__ import annotations

import asyncio
import logging
import uuid
from typing import TYPE_CHECKING

from lsprotocol import types

from . import actions
from .documents import PYTHON_LANGUAGES, PYTHON_SUFFIXES
from .logs import attach_logging
from .client import ClientFeatures
from .documents import DocumentClosed
from .hover import hover as make_hover
from .linter import limit_for
from .settings import from_sources
from .trace import TRACE_COMMAND, trace_action
from .app import fs_path

if TYPE_CHECKING:  # pragma: no cover
    from .app import GradlintServer

log = logging.getLogger(__name__)

CODE_ACTION_OPTIONS = types.CodeActionOptions(
    code_action_kinds=[types.CodeActionKind.QuickFix, actions.FIX_ALL, actions.GRADCHECK_KIND],
    resolve_provider=True,
)


def _is_python(item) -> bool:
    lang = (getattr(item, "language_id", None) or "").lower()
    if lang:
        return lang in PYTHON_LANGUAGES
    return item.uri.endswith(PYTHON_SUFFIXES)


def register(ls: GradlintServer) -> None:
    # ------------------------------------------------------------------ lifecycle
    @ls.feature(types.INITIALIZE)
    def initialize(params: types.InitializeParams) -> None:
        ls.init_options = params.initialization_options
        ls.client = ClientFeatures.from_caps(params.capabilities, ls.workspace.position_encoding)
        ls.settings = from_sources(ls.init_options)
        attach_logging(ls)
        ls.spawn(ls.linter.start())  # pay the engine's import while the client sets up
        ls.scheduler.start()
        # checks wait for `initialized` (to read the settings first), but not forever
        asyncio.get_running_loop().call_later(5.0, ls.ready.set)
        if params.process_id and ls.can_watch(params.process_id):
            # decided now, not in the task: under load the task may start after the
            # client already died, and that death must still end the server
            ls.spawn(ls.watch_parent(params.process_id))
        log.info("gradlint %s: encoding %s, %s diagnostics", ls.version, ls.client.encoding,
                 "pull" if ls.client.pull_diagnostics else "push")

    @ls.feature(types.INITIALIZED)
    async def initialized(params: types.InitializedParams) -> None:
        registrations = []
        if ls.client.register_file_watch:
            registrations.append(types.Registration(
                id=str(uuid.uuid4()), method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
                register_options=types.DidChangeWatchedFilesRegistrationOptions(
                    # Python files: a module an open document imports changed on disk
                    watchers=[types.FileSystemWatcher(glob_pattern="**/pyproject.toml"),
                              types.FileSystemWatcher(glob_pattern="**/*.py")]
                ),
            ))
        if ls.client.register_config_change:
            registrations.append(types.Registration(id=str(uuid.uuid4()), method=types.WORKSPACE_DID_CHANGE_CONFIGURATION))
        if registrations:
            try:
                await ls.client_register_capability_async(types.RegistrationParams(registrations=registrations))
            except Exception as exc:
                log.warning("client/registerCapability failed: %s", exc)
        try:
            await ls.fetch_configuration()
            ls.apply_settings()
        finally:
            ls.ready.set()  # checks wait for the settings, never forever

    @ls.feature(types.SHUTDOWN)
    def shutdown(params) -> None:
        # answered at once (pygls marks the shutdown only when this returns, and a client
        # that sends `exit` right behind it must get exit code 0); the work stops meanwhile
        ls.spawn(ls.stop_work())

    # ------------------------------------------------------------------ text documents
    @ls.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(params: types.DidOpenTextDocumentParams) -> None:
        if not _is_python(params.text_document) or ls.is_notebook_cell(params.text_document.uri):
            return
        ls.document_opened(params.text_document.uri)
        ls.scheduler.touch(params.text_document.uri, None if ls.client.pull_diagnostics else 0)

    @ls.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(params: types.DidChangeTextDocumentParams) -> None:
        key = ls.key_of(params.text_document.uri)
        if key not in ls.scheduler:
            return
        ls.scheduler.touch(key, None if ls.client.pull_diagnostics else ls.settings.debounce)
        if key == params.text_document.uri:
            ls.document_edited(key)  # and the open documents that import it

    @ls.feature(types.TEXT_DOCUMENT_DID_SAVE)
    def did_save(params: types.DidSaveTextDocumentParams) -> None:
        ls.document_saved(ls.key_of(params.text_document.uri))

    @ls.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(params: types.DidCloseTextDocumentParams) -> None:
        ls.document_closed(params.text_document.uri, [params.text_document.uri])

    # ------------------------------------------------------------------ notebooks
    @ls.feature(types.NOTEBOOK_DOCUMENT_DID_OPEN)
    def nb_open(params: types.DidOpenNotebookDocumentParams) -> None:
        ls.scheduler.touch(params.notebook_document.uri, None if ls.client.pull_diagnostics else 0)

    @ls.feature(types.NOTEBOOK_DOCUMENT_DID_CHANGE)
    def nb_change(params: types.DidChangeNotebookDocumentParams) -> None:
        key = params.notebook_document.uri
        if key in ls.scheduler:
            ls.scheduler.touch(key, None if ls.client.pull_diagnostics else ls.settings.debounce)

    @ls.feature(types.NOTEBOOK_DOCUMENT_DID_SAVE)
    def nb_save(params: types.DidSaveNotebookDocumentParams) -> None:
        ls.document_saved(params.notebook_document.uri)

    @ls.feature(types.NOTEBOOK_DOCUMENT_DID_CLOSE)
    def nb_close(params: types.DidCloseNotebookDocumentParams) -> None:
        ls.document_closed(params.notebook_document.uri, [c.uri for c in params.cell_text_documents])

    # ------------------------------------------------------------------ pull diagnostics
    @ls.feature(types.TEXT_DOCUMENT_DIAGNOSTIC)
    async def diagnostic(params: types.DocumentDiagnosticParams):
        uri = params.text_document.uri
        key = ls.key_of(uri)
        if key not in ls.scheduler:
            return types.RelatedFullDocumentDiagnosticReport(items=await ls.disk_report(uri))
        try:
            result = await ls.scheduler.current(key)
        except DocumentClosed:
            return types.RelatedFullDocumentDiagnosticReport(items=[])
        dr = result.payload.docs.get(uri) if result.payload is not None else None
        items = ls.lsp_diagnostics(uri, dr) if dr is not None else []
        result_id = f"{ls.session_id}.{result.gen}.{ls.gradcheck.epoch}.{ls.trace.epoch}"
        if params.previous_result_id == result_id:
            return types.RelatedUnchangedDocumentDiagnosticReport(result_id=result_id)
        return types.RelatedFullDocumentDiagnosticReport(items=items, result_id=result_id)

    # ------------------------------------------------------------------ actions, hover
    @ls.feature(types.TEXT_DOCUMENT_CODE_ACTION, CODE_ACTION_OPTIONS)
    async def code_action(params: types.CodeActionParams):
        view = await ls.view(params.text_document.uri)
        if view is None:
            return []
        only = [getattr(k, "value", k) for k in params.context.only] if params.context.only else None
        rng = params.range
        out: list[types.CodeAction] = []
        if actions.wants(types.CodeActionKind.QuickFix.value, only):
            out += actions.quick_fixes(view, rng, ls.client)
            out += actions.noqa_actions(view, rng, ls.client)
        if actions.wants(actions.GRADCHECK_KIND, only):
            out += actions.report_actions(view, rng, ls.gradcheck.diagnostics(view.uri, view.text, view.index))
            found = [] if view.notebook_cell or view.path is None else ls.targets_of(view.uri, view.text)
            action = actions.gradcheck_action(view, rng, ls.client, ls.settings.dynamic_checks, found)
            if action is not None:
                out.append(action)
            action = trace_action(view, ls.client, ls.settings.dynamic_checks, rng)
            if action is not None:
                out.append(action)
        if actions.wants(actions.FIX_ALL, only) and actions.has_safe_fix(view.diagnostics):
            if view.notebook_cell:
                action = actions.fix_all_action(view, actions.cell_fixed_text(view), ls.client)
            elif ls.client.resolve_edit:
                action = actions.fix_all_action(view, None, ls.client)
            elif only is not None:  # computed eagerly only when asked for by kind
                action = actions.fix_all_action(view, await _fixed_text(ls, view), ls.client)
            else:
                action = None
            if action is not None:
                out.append(action)
        return out

    @ls.feature(types.CODE_ACTION_RESOLVE)
    async def resolve(action: types.CodeAction) -> types.CodeAction:
        data = action.data if isinstance(action.data, dict) else {}
        if data.get("kind") != actions.FIX_ALL or not isinstance(data.get("uri"), str):
            return action
        view = await ls.view(data["uri"])
        if view is None:
            return action
        done = actions.fix_all_action(view, await _fixed_text(ls, view), ls.client)
        if done is not None:
            action.edit = done.edit
        return action

    @ls.feature(types.TEXT_DOCUMENT_HOVER)
    async def hover(params: types.HoverParams):
        view = await ls.view(params.text_document.uri)
        if view is None:
            return None
        verdicts = [d for _, d in ls.gradcheck.diagnostics(view.uri, view.text, view.index)]
        return make_hover(view.index, view.diagnostics, params.position, verdicts)

    # ------------------------------------------------------------------ configuration
    @ls.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
    async def did_change_configuration(params: types.DidChangeConfigurationParams) -> None:
        if ls.client.configuration:
            await ls.fetch_configuration()
        elif params.settings is not None:
            ls.config_section = params.settings
        ls.apply_settings()
        ls.invalidate_all()

    @ls.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def did_change_watched_files(params: types.DidChangeWatchedFilesParams) -> None:
        if any(c.uri.endswith("pyproject.toml") for c in params.changes):
            ls.configs.reload()
            ls.invalidate_all()
        changed = [(fs_path(c.uri), c.type) for c in params.changes if c.uri.endswith(PYTHON_SUFFIXES)]
        paths = [p for p, _ in changed if p is not None]
        if paths:
            ls.files_changed(paths, any(t != types.FileChangeType.Changed for _, t in changed))

    # ------------------------------------------------------------------ commands
    # `*args` only: pygls then passes the raw JSON arguments through, validated by the service
    @ls.command(actions.GRADCHECK_COMMAND)
    async def gradcheck(*args):
        return await ls.gradcheck.run(args)

    @ls.command(TRACE_COMMAND)
    async def trace(*args):
        return await ls.trace.run(args)

    @ls.command(actions.SHOW_REPORT_COMMAND)
    def show_report(*args):
        return ls.gradcheck.show_report(args)


async def _fixed_text(ls: GradlintServer, view: actions.DocView) -> str:
    if len(view.text) > ls.settings.max_file_size:
        return view.text
    path = view.path or "untitled.py"
    config = ls.configs.config_for(view.path, ls.settings, ls.root_dir)
    try:
        text, _n = await ls.linter.fix(path, config, view.text, limit_for(view.text, ls.settings.file_timeout))
    except Exception as exc:
        log.error("fix-all failed: %s", exc)
        return view.text
    return text
