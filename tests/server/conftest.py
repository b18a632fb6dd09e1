"""Fixtures for the language-server tests: real server processes driven by pytest-lsp clients
that look like VS Code (UTF-16, pull diagnostics, progress, notebooks) or Neovim 0.11 (UTF-8,
push diagnostics)."""

from __future__ import annotations

import asyncio
import copy
import shutil
import sys
from pathlib import Path
from typing import Any, Union
from collections.abc import Callable

from dataclasses import dataclass

import pytest
import pytest_asyncio
from pytest_asyncio import is_async_test
from lsprotocol import types
from pygls.protocol import default_converter
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, register_lsp_features

from gradlint.diagnostics import Diagnostic
from gradlint.engine import check_source
from gradlint.source import apply_edits

HERE = Path(__file__).parent
FIXTURES = HERE / "fixtures"
SERVER = [sys.executable, "-m", "gradlint_server"]
FAKE_WORKER_SERVER = [sys.executable, str(HERE / "fake_worker_server.py")]


def vscode_capabilities() -> types.ClientCapabilities:
    caps = copy.deepcopy(client_capabilities("visual-studio-code"))
    caps.text_document.diagnostic = types.DiagnosticClientCapabilities(dynamic_registration=True, related_document_support=False)
    caps.workspace.diagnostics = types.DiagnosticWorkspaceClientCapabilities(refresh_support=True)
    caps.notebook_document = types.NotebookDocumentClientCapabilities(
        synchronization=types.NotebookDocumentSyncClientCapabilities(dynamic_registration=True, execution_summary_support=True)
    )
    caps.general = types.GeneralClientCapabilities(position_encodings=[types.PositionEncodingKind.Utf16])
    return caps


def neovim_capabilities() -> types.ClientCapabilities:
    caps = copy.deepcopy(client_capabilities("neovim@v0.11"))
    assert caps.general.position_encodings[0] == "utf-8"
    caps.text_document.diagnostic = None  # what nvim_probe does by default: make the server push
    return caps


CAPABILITIES: dict[str, Callable[[], types.ClientCapabilities]] = {"vscode": vscode_capabilities, "neovim": neovim_capabilities}


def _make_client() -> LanguageClient:
    client = LanguageClient(converter_factory=default_converter)
    client.published = []  # every publishDiagnostics, in order (pytest-lsp keeps only the last)
    client.registrations = []

    def publish(c: LanguageClient, params: types.PublishDiagnosticsParams) -> None:
        c.published.append(params)
        c.diagnostics[params.uri] = params.diagnostics

    def register_capability(c: LanguageClient, params: types.RegistrationParams) -> None:
        c.registrations.extend(params.registrations)

    # lsprotocol structures any code action that has a `command` as a bare Command (a
    # CodeAction's `command` is an object, a Command's a string): tell them apart properly
    converter = client.protocol._converter

    def action_or_command(obj: Any, _: type) -> types.Command | types.CodeAction:
        if isinstance(obj.get("command"), str):
            return converter.structure(obj, types.Command)
        return converter.structure(obj, types.CodeAction)

    converter.register_structure_hook(Union[types.Command, types.CodeAction], action_or_command)

    features = dict(DEFAULT_CLIENT_FEATURES)
    features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = publish
    features[types.CLIENT_REGISTER_CAPABILITY] = register_capability
    register_lsp_features(client, features)
    return client


class Harness:
    """Starts servers and offers the waits the tests need."""

    SERVER = SERVER
    FAKE_WORKER_SERVER = FAKE_WORKER_SERVER

    def __init__(self, root: Path) -> None:
        self.root = root
        self.clients: list[LanguageClient] = []

    @staticmethod
    def capabilities(kind: str) -> types.ClientCapabilities:
        return CAPABILITIES[kind]()

    def copy_fixture(self, name: str, as_name: str | None = None) -> Path:
        dest = self.root / (as_name or name)
        shutil.copy(FIXTURES / name, dest)
        return dest

    def unique(self, suffix: str = ".py") -> Path:
        """A fresh file name: tests that share a server must not share documents."""
        self._count = getattr(self, "_count", 0) + 1
        return self.root / f"doc{self._count}{suffix}"

    def write(self, name: str, text: str | bytes) -> Path:
        dest = self.root / name
        dest.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(text, bytes):
            dest.write_bytes(text)
        else:
            dest.write_text(text, encoding="utf-8")
        return dest

    async def start(
        self,
        kind: str = "vscode",
        init: dict | None = None,
        settings: dict | None = None,
        command: list[str] | None = None,
        capabilities: types.ClientCapabilities | None = None,
    ) -> LanguageClient:
        config = ClientServerConfig(server_command=command or SERVER, client_factory=_make_client)
        client = await config.start()
        client.kind = kind
        if settings is not None:
            client.set_configuration(settings, section="gradlint")
        caps = capabilities or CAPABILITIES[kind]()
        client.init_result = await asyncio.wait_for(
            client.initialize_session(
                types.InitializeParams(
                    capabilities=caps,
                    root_uri=self.root.as_uri(),
                    workspace_folders=[types.WorkspaceFolder(uri=self.root.as_uri(), name=self.root.name)],
                    initialization_options={"debounce": 50, **(init or {})},
                )
            ),
            30,
        )
        self.clients.append(client)
        return client

    @staticmethod
    def open(client: LanguageClient, path: Path, text: str | None = None, version: int = 1, language: str = "python") -> str:
        uri = path.as_uri()
        client.text_document_did_open(
            types.DidOpenTextDocumentParams(
                text_document=types.TextDocumentItem(uri=uri, language_id=language, version=version, text=path.read_text(encoding="utf-8") if text is None else text)
            )
        )
        return uri

    @staticmethod
    def replace_all(client: LanguageClient, uri: str, text: str, version: int) -> None:
        client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
                content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
            )
        )

    @staticmethod
    async def publish(client: LanguageClient, uri: str, pred: Callable[[types.PublishDiagnosticsParams], bool] = lambda p: True, since: int = 0, timeout: float = 20.0) -> types.PublishDiagnosticsParams:
        """The first publishDiagnostics for `uri` at index >= `since` that satisfies `pred`."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            for p in client.published[since:]:
                if p.uri == uri and pred(p):
                    return p
            if loop.time() > deadline:
                seen = [(p.uri, p.version, len(p.diagnostics)) for p in client.published[since:]]
                raise AssertionError(f"no matching publishDiagnostics for {uri} within {timeout}s; got {seen}")
            await asyncio.sleep(0.01)

    @staticmethod
    async def until(cond: Callable[[], Any], timeout: float = 20.0, what: str = "condition") -> Any:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            value = cond()
            if value:
                return value
            if loop.time() > deadline:
                raise AssertionError(f"timed out waiting for {what}")
            await asyncio.sleep(0.01)

    @staticmethod
    async def pull(client: LanguageClient, uri: str, previous: str | None = None):
        return await asyncio.wait_for(
            client.text_document_diagnostic_async(
                types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=uri), previous_result_id=previous)
            ),
            30,
        )

    async def close(self) -> None:
        for client in self.clients:
            try:
                if client._server is not None and client._server.returncode is None:
                    await asyncio.wait_for(client.shutdown_session(), 10)
            except Exception:
                pass
            try:
                await asyncio.wait_for(client.stop(), 10)
            except Exception:
                pass


def pytest_collection_modifyitems(items) -> None:
    # One event loop for the whole session, so that a server (and its client) can be shared by
    # the tests of a module: starting one costs about a second.
    marker = pytest.mark.asyncio(loop_scope="session")
    for item in items:
        if is_async_test(item) and HERE in Path(str(item.fspath)).parents:
            item.add_marker(marker, append=False)


@pytest_asyncio.fixture(loop_scope="session")
async def lsp(tmp_path: Path):
    harness = Harness(tmp_path)
    yield harness
    await harness.close()


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def shared(tmp_path_factory):
    """Servers shared by a module's tests (default settings; each test opens its own files)."""
    harness = Harness(tmp_path_factory.mktemp("shared"))
    harness.by_kind = {}
    yield harness
    await harness.close()


async def _shared_client(shared: Harness, kind: str) -> LanguageClient:
    if kind not in shared.by_kind:
        shared.by_kind[kind] = await shared.start(kind)
    return shared.by_kind[kind]


@pytest_asyncio.fixture(loop_scope="session")
async def neovim(shared: Harness) -> LanguageClient:
    return await _shared_client(shared, "neovim")


@pytest_asyncio.fixture(loop_scope="session")
async def vscode(shared: Harness) -> LanguageClient:
    return await _shared_client(shared, "vscode")


@pytest.fixture
def pitfalls() -> str:
    return (FIXTURES / "pitfalls.py").read_text(encoding="utf-8")


@dataclass
class Findings:
    """What the engine, run in this process, finds in the fixture: the tests compare the
    server with it instead of hard-coding rule behaviour that is still evolving."""

    text: str
    all: list[Diagnostic]
    safe: Diagnostic  # a finding with a safe fix, on a line with non-ASCII text before it
    unsafe: Diagnostic  # a finding whose fix is offered but not applied by --fix
    fixed: str  # the text with `safe`'s fix applied

    @property
    def codes(self) -> set[str]:
        return {d.code for d in self.all}


@pytest.fixture
def findings(pitfalls: str) -> Findings:
    diags = check_source(pitfalls, str(FIXTURES / "pitfalls.py"))
    lines = pitfalls.split("\n")
    safe = [d for d in diags if d.fix is not None and d.fix.is_safe and not lines[d.start.line - 1][: d.start.column].isascii()]
    unsafe = [d for d in diags if d.fix is not None and not d.fix.is_safe]
    assert safe and unsafe, f"fixtures/pitfalls.py no longer has the findings the tests need (rules changed?): {diags}"
    return Findings(pitfalls, diags, safe[0], unsafe[0], apply_edits(pitfalls, list(safe[0].fix.edits)))


class RawServer:
    """A server process spoken to in raw JSON-RPC frames, for fault injection."""

    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self.proc = proc
        self.messages: list[dict] = []  # everything received, in order
        self.stderr: list[str] = []
        self._buffer = b""
        self._stderr_task = asyncio.ensure_future(self._drain_stderr())
        self._next_id = 0

    @classmethod
    async def start(cls, *args: str, command: list[str] | None = None, cwd: Path | None = None) -> "RawServer":
        proc = await asyncio.create_subprocess_exec(
            *(command or SERVER), *args,
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE, cwd=cwd,
        )
        return cls(proc)

    async def _drain_stderr(self) -> None:
        assert self.proc.stderr is not None
        while line := await self.proc.stderr.readline():
            self.stderr.append(line.decode("utf-8", "replace"))

    def send_bytes(self, data: bytes) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(data)

    def send(self, obj: dict) -> None:
        import json

        body = json.dumps(obj).encode()
        self.send_bytes(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def request(self, method: str, params: Any = None) -> int:
        self._next_id += 1
        msg = {"jsonrpc": "2.0", "id": self._next_id, "method": method}
        if params is not None:
            msg["params"] = params
        self.send(msg)
        return self._next_id

    def notify(self, method: str, params: Any = None) -> None:
        msg = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            msg["params"] = params
        self.send(msg)

    async def _read_one(self) -> dict | None:
        import json

        assert self.proc.stdout is not None
        header = await self.proc.stdout.readuntil(b"\r\n\r\n")
        length = None
        for line in header.decode("ascii").split("\r\n"):
            name, _, value = line.partition(":")
            if name.lower() == "content-length":
                length = int(value)
        assert length is not None, f"frame without Content-Length: {header!r}"
        msg = json.loads(await self.proc.stdout.readexactly(length))
        self.messages.append(msg)
        return msg

    async def wait_for(self, pred: Callable[[dict], bool], timeout: float = 20.0) -> dict:
        for msg in self.messages:
            if pred(msg):
                return msg
        async def loop() -> dict:
            while True:
                msg = await self._read_one()
                if msg is not None and pred(msg):
                    return msg
        return await asyncio.wait_for(loop(), timeout)

    async def response(self, msg_id: Any, timeout: float = 20.0) -> dict:
        return await self.wait_for(lambda m: m.get("id") == msg_id and ("result" in m or "error" in m), timeout)

    async def call(self, method: str, params: Any = None, timeout: float = 20.0) -> dict:
        return await self.response(self.request(method, params), timeout)

    async def initialize(self, root: Path, capabilities: dict | None = None, init: dict | None = None, pid: int | None = None) -> dict:
        import os

        res = await self.call("initialize", {
            "processId": pid if pid is not None else os.getpid(), "rootUri": root.as_uri(),
            "capabilities": capabilities or {}, "initializationOptions": {"debounce": 20, **(init or {})},
        })
        self.notify("initialized", {})
        return res

    def open(self, path: Path, text: str | None = None, version: int = 1) -> str:
        uri = path.as_uri()
        self.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "python", "version": version, "text": path.read_text(encoding="utf-8") if text is None else text}})
        return uri

    async def diagnostics(self, uri: str, version: int | None = None, timeout: float = 20.0) -> dict:
        def match(m: dict) -> bool:
            return m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri and (version is None or m["params"].get("version") == version)
        return (await self.wait_for(match, timeout))["params"]

    async def wait_exit(self, timeout: float = 10.0) -> int:
        async def drain() -> None:  # keep reading so the server never blocks on a full pipe
            assert self.proc.stdout is not None
            while await self.proc.stdout.read(1 << 16):
                pass
        reader = asyncio.ensure_future(drain())
        try:
            return await asyncio.wait_for(self.proc.wait(), timeout)
        finally:
            reader.cancel()

    async def kill(self) -> None:
        if self.proc.returncode is None:
            self.proc.kill()
            await self.proc.wait()
        self._stderr_task.cancel()


@pytest_asyncio.fixture(loop_scope="session")
async def raw():
    servers: list[RawServer] = []

    async def start(*args: str, command: list[str] | None = None, cwd: Path | None = None) -> RawServer:
        server = await RawServer.start(*args, command=command, cwd=cwd)
        servers.append(server)
        return server

    yield start
    for server in servers:
        await server.kill()
