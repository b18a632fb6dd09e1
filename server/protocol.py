"""pygls' LanguageServerProtocol with the gaps that matter to an editor filled in:

- a request whose params do not match the method's schema gets an InvalidParams error
  (pygls 2.1 only logs it, leaving the client waiting forever);
- requests before `initialize` get ServerNotInitialized (-32002), and a second `initialize`
  gets InvalidRequest and changes nothing (LSP allows one; pygls would re-run it and replace
  the initializationOptions, which can hold `dynamicChecks: false`);
- pull diagnostics (`diagnosticProvider`) are advertised only to clients that can pull, so
  that every other client gets pushes (what ruff does);
- document lines end at "\\r\\n", "\\r" and "\\n" only (LSP's line ends): pygls splits on every
  Unicode line break (form feed, U+2028...), which puts incremental edits after such a
  character in the wrong place; and an incremental edit is one splice (pygls rebuilds the text
  line by line on every keystroke);
- the `workDoneToken` of `workspace/executeCommand` reaches the command (pygls drops it).
"""

from __future__ import annotations

import contextvars
import logging
from typing import Any

from lsprotocol import types
from pygls.exceptions import JsonRpcException, JsonRpcInvalidParams
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.language_server import lsp_method
from pygls.workspace import TextDocument, Workspace

from gradlint.source import EOL as _EOL, split_lines_keepends

from .positions import normalize_encoding, to_code_points

log = logging.getLogger(__name__)

# the executeCommand's client-provided progress token, visible to the command's handler
WORK_DONE_TOKEN: contextvars.ContextVar[types.ProgressToken | None] = contextvars.ContextVar("work_done_token", default=None)

SERVER_NOT_INITIALIZED = -32002
INVALID_REQUEST = -32600


class _Answered:
    """A message that was already answered with an error while it was being decoded."""


ANSWERED = _Answered()


class _Document(TextDocument):
    @property
    def lines(self):  # LSP line breaks are \n, \r\n and \r; Python's splitlines knows more
        parts = split_lines_keepends(self.source)
        if not parts[-1]:
            parts.pop()
        return tuple(parts)

    def _apply_incremental_change(self, change: types.TextDocumentContentChangePartial) -> None:
        # pygls rebuilds the whole text line by line for every keystroke (2 ms on a 10,000-line
        # file, 2 s for a burst of 1,000 edits); two offsets and one splice do the same.
        src = self.source
        encoding = normalize_encoding(self._position_codec.encoding)
        start, end = _offset(src, change.range.start, encoding), _offset(src, change.range.end, encoding)
        self._source = src[:start] + change.text + src[max(start, end):]


def _offset(src: str, pos: types.Position, encoding: str) -> int:
    """The offset in `src` of an LSP position (clamped to its line, or to the end)."""
    if "\r" in src:  # lines end at "\r" too: a regex walk (rare, so not worth the C-level path)
        start = 0
        if pos.line > 0:
            for n, m in enumerate(_EOL.finditer(src), 1):
                if n == pos.line:
                    start = m.end()
                    break
            else:
                return len(src)  # past the end
        m = _EOL.search(src, start)
        line = src[start : m.start() if m else len(src)]
        return start + to_code_points(line, pos.character, encoding)
    parts = src.split("\n", pos.line)  # C-level work only, up to the wanted line
    if len(parts) <= pos.line:
        return len(src)  # past the end
    rest = parts[-1]
    nl = rest.find("\n")
    line = rest if nl < 0 else rest[:nl]
    return len(src) - len(rest) + to_code_points(line, pos.character, encoding)


class _Workspace(Workspace):
    def _create_text_document(self, doc_uri, source=None, version=None, language_id=None):
        return _Document(
            doc_uri, source=source, version=version, language_id=language_id,
            sync_kind=self._sync_kind, position_codec=self._position_codec,
        )


def client_can_pull(caps: types.ClientCapabilities | None) -> bool:
    return bool(caps and caps.text_document and caps.text_document.diagnostic is not None)


class GradlintProtocol(LanguageServerProtocol):
    def __init__(self, server, converter) -> None:
        super().__init__(server, converter)
        self.initialized = False
        self._initialize_seen = False  # set on receipt: a second one may arrive before the first ends

    # ------------------------------------------------------------------ decoding
    def structure_message(self, data: dict[str, Any]):
        try:
            return super().structure_message(data)
        except JsonRpcException as exc:
            if "id" in data and "method" in data:
                err = exc if isinstance(exc, JsonRpcInvalidParams) else JsonRpcInvalidParams()
                self._send_response(data["id"], error=types.ResponseError(code=err.code, message=f"invalid params for {data['method']}: {_cause(exc)}"))
                return ANSWERED
            raise

    def handle_message(self, message) -> None:
        if message is ANSWERED:
            return
        if isinstance(message, dict):  # not a JSON-RPC 2.0 message at all
            if "id" in message and "method" in message:
                self._send_response(message["id"], error=types.ResponseError(code=INVALID_REQUEST, message="not a JSON-RPC 2.0 request"))
            else:
                log.warning("ignoring a message that is not JSON-RPC 2.0")
            return
        if not hasattr(message, "jsonrpc"):
            log.warning("ignoring a message of unexpected shape: %.200r", message)
            return
        super().handle_message(message)

    def _handle_request(self, msg_id, method_name, params):
        if method_name == types.INITIALIZE:
            if self._initialize_seen:
                self._send_response(msg_id, error=types.ResponseError(code=INVALID_REQUEST, message="the server is already initialized (initialize may be sent only once)"))
                return
            self._initialize_seen = True
        elif not self.initialized:
            self._send_response(msg_id, error=types.ResponseError(code=SERVER_NOT_INITIALIZED, message="the server is not initialized yet"))
            return
        super()._handle_request(msg_id, method_name, params)

    # ------------------------------------------------------------------ lifecycle
    @lsp_method(types.INITIALIZE)
    def lsp_initialize(self, params: types.InitializeParams):
        try:
            result = yield from super().lsp_initialize(params)
        except BaseException:
            self._initialize_seen = False  # it failed: the client may try again
            raise
        self._workspace.__class__ = _Workspace  # no document exists yet: safe to swap
        caps = result.capabilities
        if client_can_pull(params.capabilities):
            caps.diagnostic_provider = types.DiagnosticOptions(
                identifier="gradlint", inter_file_dependencies=False, workspace_diagnostics=False
            )
        else:
            caps.diagnostic_provider = None
        self.initialized = True
        return result

    @lsp_method(types.WORKSPACE_EXECUTE_COMMAND)
    def lsp_workspace__execute_command(self, params: types.ExecuteCommandParams):
        WORK_DONE_TOKEN.set(params.work_done_token)
        return (yield from super().lsp_workspace__execute_command(params))

    def request_future(self, msg_id) -> Any:
        """The future pygls answers request `msg_id` from (cancelled by `$/cancelRequest`)."""
        return self._request_futures.get(msg_id)


def _cause(exc: BaseException) -> str:
    inner = exc.__cause__ or exc
    text = str(inner).strip().splitlines()
    return text[0][:300] if text else type(inner).__name__
