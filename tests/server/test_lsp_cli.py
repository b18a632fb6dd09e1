"""Starting the server: `gradlint lsp` / `python -m gradlint_server`, over stdio or TCP."""

from __future__ import annotations

import asyncio
import json
import re
import shutil
import subprocess
import sys

import pytest


async def _frame_reader(reader: asyncio.StreamReader) -> dict:
    header = await reader.readuntil(b"\r\n\r\n")
    length = int(re.search(rb"Content-Length: (\d+)", header).group(1))
    return json.loads(await reader.readexactly(length))


def _frame(obj: dict) -> bytes:
    body = json.dumps(obj).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


async def test_tcp_serves_one_client_and_exits_with_it(tmp_path, findings) -> None:
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "gradlint_server", "--tcp", "127.0.0.1:0",
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )
    try:
        port = None
        while port is None:
            line = (await asyncio.wait_for(proc.stderr.readline(), 30)).decode()
            m = re.search(r"listening on 127\.0\.0\.1:(\d+)", line)
            port = int(m.group(1)) if m else None
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(_frame({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"processId": None, "rootUri": tmp_path.as_uri(), "capabilities": {}}}))
        writer.write(_frame({"jsonrpc": "2.0", "method": "initialized", "params": {}}))
        path = tmp_path / "p.py"
        path.write_text(findings.text)
        writer.write(_frame({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {"uri": path.as_uri(), "languageId": "python", "version": 1, "text": findings.text}}}))
        await writer.drain()
        codes = None
        while codes is None:
            msg = await asyncio.wait_for(_frame_reader(reader), 30)
            if msg.get("method") == "textDocument/publishDiagnostics":
                codes = {d["code"] for d in msg["params"]["diagnostics"]}
        assert codes == findings.codes
        writer.write(_frame({"jsonrpc": "2.0", "id": 2, "method": "shutdown"}))
        writer.write(_frame({"jsonrpc": "2.0", "method": "exit"}))
        await writer.drain()
        assert await asyncio.wait_for(proc.wait(), 15) == 0
        assert await proc.stdout.read() == b""  # nothing on stdout in TCP mode
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()


def test_gradlint_lsp_subcommand() -> None:
    exe = shutil.which("gradlint")
    if exe is None:
        pytest.skip("the gradlint console script is not installed")
    out = subprocess.run([exe, "lsp", "--help"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert "--tcp" in out.stdout and "--log-level" in out.stdout
    bad = subprocess.run([sys.executable, "-m", "gradlint_server", "--tcp", "nope"], capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "PORT" in bad.stderr
