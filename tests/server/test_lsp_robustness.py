"""Fault injection over raw JSON-RPC pipes: malformed input, wrong params, unknown methods,
documents never opened, positions past the end, huge and undecodable files, broken
configuration, a burst of edits on a big file, clients that vanish — the server answers with
errors or ignores, keeps serving, and exits cleanly."""

from __future__ import annotations

import asyncio
import os
import re
import subprocess
import sys
import time
from pathlib import Path

from gradlint_server.app import PARENT_POLL_S

PULL = {"textDocument": {"diagnostic": {}}}


def big_file(lines: int, block: str) -> str:
    parts, n, i = [], 0, 0
    while n < lines:
        part = block.replace("def scale(", f"def scale_{i}(").replace("class Square(", f"class Square{i}(")
        parts.append(f"# ---- block {i}\n{part}")
        n += part.count("\n") + 1
        i += 1
    return "".join(parts)


async def test_malformed_messages_get_errors_and_serving_goes_on(raw, tmp_path, findings) -> None:
    pitfalls = findings.text
    server = await raw()
    early = await server.call("textDocument/hover", {"textDocument": {"uri": "file:///x.py"}, "position": {"line": 0, "character": 0}})
    assert early["error"]["code"] == -32002  # not initialized yet
    await server.initialize(tmp_path)

    server.send_bytes(b"Content-Length: 12\r\n\r\n{not json!!}")
    parse = await server.wait_for(lambda m: m.get("error", {}).get("code") == -32700)
    assert parse["id"] is None
    server.send_bytes(b"Content-Length: abc\r\n\r\n")  # a header without a usable length: skipped
    bad = await server.call("textDocument/hover", {"textDocument": 5, "position": "here"})
    assert bad["error"]["code"] == -32602
    unknown = await server.call("gradlint/noSuchMethod", {})
    assert unknown["error"]["code"] == -32601
    server.notify("gradlint/noSuchNotification", {"x": 1})
    server.notify("textDocument/didOpen", {"textDocument": {"uri": 3}})  # invalid notification: ignored
    server.send({"id": 99, "method": "initialize"})  # not JSON-RPC 2.0
    assert (await server.response(99))["error"]["code"] == -32600
    server.send_bytes(b"Content-Length: 2\r\n\r\n[]")  # JSON, but not a message

    path = tmp_path / "p.py"
    path.write_text(pitfalls)
    uri = server.open(path)
    diags = await server.diagnostics(uri)
    assert {d["code"] for d in diags["diagnostics"]} == findings.codes
    assert not any("Traceback" in line for line in server.stderr if "Unable to handle" in line)


async def test_unopened_documents_positions_past_the_end_and_bad_bytes(raw, tmp_path, findings) -> None:
    pitfalls = findings.text
    server = await raw()
    await server.initialize(tmp_path, capabilities=PULL)
    ghost = (tmp_path / "never_opened.py").as_uri()
    pos = {"line": 0, "character": 0}
    assert (await server.call("textDocument/hover", {"textDocument": {"uri": ghost}, "position": pos}))["result"] is None
    ca = await server.call("textDocument/codeAction", {"textDocument": {"uri": ghost}, "range": {"start": pos, "end": pos}, "context": {"diagnostics": []}})
    assert ca["result"] == []
    server.notify("textDocument/didChange", {"textDocument": {"uri": ghost, "version": 2}, "contentChanges": [{"text": "x"}]})
    server.notify("textDocument/didClose", {"textDocument": {"uri": ghost}})
    assert (await server.call("textDocument/diagnostic", {"textDocument": {"uri": ghost}}))["result"]["items"] == []

    latin1 = tmp_path / "latin1.py"
    latin1.write_bytes(b"import torch\nname = '\xe9t\xe9'\n")
    items = (await server.call("textDocument/diagnostic", {"textDocument": {"uri": latin1.as_uri()}}))["result"]["items"]
    assert [d["code"] for d in items] == ["GL003"] and "0xe9" in items[0]["message"]
    on_disk = tmp_path / "disk.py"
    on_disk.write_text(pitfalls)
    items = (await server.call("textDocument/diagnostic", {"textDocument": {"uri": on_disk.as_uri()}}))["result"]["items"]
    assert {d["code"] for d in items} == findings.codes

    path = tmp_path / "p.py"
    path.write_text(pitfalls)
    uri = server.open(path)
    far = {"line": 10**6, "character": 10**6}
    assert (await server.call("textDocument/hover", {"textDocument": {"uri": uri}, "position": far}))["result"] is None
    ca = await server.call("textDocument/codeAction", {"textDocument": {"uri": uri}, "range": {"start": far, "end": far}, "context": {"diagnostics": []}})
    assert ca["result"] == []
    wide = await server.call("textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": 11, "character": 10**6}})
    assert "error" not in wide


async def test_huge_single_line_file_is_reported_and_others_still_served(raw, tmp_path, pitfalls) -> None:
    server = await raw()
    await server.initialize(tmp_path)
    huge = tmp_path / "huge.py"
    huge.write_text("data = [" + ",".join("1.5" for _ in range(1_300_000)) + "]\n")  # ~5 MB, one line
    t0 = time.monotonic()
    uri = server.open(huge)
    small = tmp_path / "p.py"
    small.write_text(pitfalls)
    small_uri = server.open(small)
    diags = await server.diagnostics(small_uri, timeout=10)
    assert diags["diagnostics"]
    big = await server.diagnostics(uri, timeout=10)
    assert [d["message"].split(" —")[0] for d in big["diagnostics"]] == ["gradlint: not checked"]
    assert time.monotonic() - t0 < 10
    hover = await server.call("textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 4_000_000}})
    assert hover["result"] is None


async def test_big_file_and_a_burst_of_1000_edits_stay_responsive(raw, tmp_path, pitfalls) -> None:
    server = await raw()
    await server.initialize(tmp_path, init={"debounce": 100})
    text = big_file(10_000, pitfalls)
    path = tmp_path / "big.py"
    path.write_text(text)
    uri = server.open(path)
    await server.diagnostics(uri, version=1, timeout=60)
    before = len(server.messages)
    t0 = time.monotonic()
    for version in range(2, 1002):  # type one character at a time at the top of the file
        server.notify("textDocument/didChange", {
            "textDocument": {"uri": uri, "version": version},
            "contentChanges": [{"range": {"start": {"line": 1, "character": 0}, "end": {"line": 1, "character": 0}}, "text": "#"}],
        })
    hover = await server.call("textDocument/hover", {"textDocument": {"uri": "file:///elsewhere.py"}, "position": {"line": 0, "character": 0}}, timeout=5)
    assert hover["result"] is None and time.monotonic() - t0 < 5  # answered amid the burst
    final = await server.diagnostics(uri, version=1001, timeout=60)
    assert final["diagnostics"]
    publishes = [m for m in server.messages[before:] if m.get("method") == "textDocument/publishDiagnostics"]
    assert [p["params"]["version"] for p in publishes] == [1001]  # nothing stale, no queue of checks


async def test_client_vanishing_mid_request_ends_the_server_and_its_children(raw, tmp_path, pitfalls) -> None:
    server = await raw("--log-level", "debug")
    await server.initialize(tmp_path)
    path = tmp_path / "big.py"
    path.write_text(big_file(5_000, pitfalls))
    uri = server.open(path)
    server.request("textDocument/codeAction", {"textDocument": {"uri": uri}, "range": {"start": {"line": 3, "character": 0}, "end": {"line": 3, "character": 0}}, "context": {"diagnostics": []}})
    await asyncio.sleep(0.3)
    pids = [int(m.group(1)) for line in server.stderr for m in [re.search(r"lint process (\d+) started", line)] if m]
    assert pids
    server.proc.stdin.close()  # the editor crashed
    assert await server.wait_exit(15) == 0
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            os.kill(pids[0], 0)
        except ProcessLookupError:
            break
        await asyncio.sleep(0.1)
    else:
        raise AssertionError("the lint process outlived the server")


async def test_exit_codes_and_a_clean_stdout(raw, tmp_path) -> None:
    clean = await raw()
    await clean.initialize(tmp_path)
    assert (await clean.call("shutdown"))["result"] is None
    clean.notify("exit")
    assert await clean.wait_exit() == 0

    rude = await raw()
    await rude.initialize(tmp_path)
    rude.notify("exit")  # exit without shutdown: 1, as LSP says
    assert await rude.wait_exit() == 1

    eof = await raw()
    await eof.initialize(tmp_path)
    eof.proc.stdin.close()
    assert await eof.wait_exit() == 0
    # everything any of them wrote to stdout parsed as frames (wait_for would have failed)
    assert all("jsonrpc" in m for s in (clean, rude, eof) for m in s.messages)


async def test_exits_when_the_editor_process_dies(raw, tmp_path) -> None:
    editor = subprocess.Popen([sys.executable, "-c", "import sys; sys.stdin.read()"], stdin=subprocess.PIPE)
    server = await raw()
    await server.initialize(tmp_path, pid=editor.pid)
    editor.stdin.close()  # the editor quits without closing the server's pipes
    editor.wait()
    assert await server.wait_exit(PARENT_POLL_S + 8) == 0


async def test_a_workspace_cannot_shadow_the_linter(raw, tmp_path, findings) -> None:
    """The server and its lint process start in the workspace (editors do that): modules there
    named like the linter's must never be imported — that would run the workspace's code."""
    marker = tmp_path / "ran"
    script = Path(sys.executable).with_name("gradlint")  # what editors run: `gradlint lsp`
    names = ["gradlint", "libcst", "pygls"]
    if script.exists():
        command = [str(script), "lsp"]
        names.append("gradlint_server")
    else:  # `python -m gradlint_server` finds the package itself from the working directory
        command = None
    for name in names:
        (tmp_path / name).mkdir()
        (tmp_path / name / "__init__.py").write_text(f"open({str(marker)!r}, 'a').write({name!r})\n")
    server = await raw(command=command, cwd=tmp_path)
    await server.initialize(tmp_path)
    path = tmp_path / "p.py"
    path.write_text(findings.text)
    diags = await server.diagnostics(server.open(path))
    assert {d["code"] for d in diags["diagnostics"]} == findings.codes
    assert not marker.exists()


async def test_a_killed_lint_process_is_replaced(raw, tmp_path, findings) -> None:
    server = await raw("--log-level", "debug")
    await server.initialize(tmp_path)
    path = tmp_path / "p.py"
    path.write_text(findings.text)
    uri = server.open(path)
    await server.diagnostics(uri, version=1)
    (pid,) = {int(m.group(1)) for line in server.stderr for m in [re.search(r"lint process (\d+) started", line)] if m}
    os.kill(pid, 9)
    server.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": findings.fixed}]})
    again = await server.diagnostics(uri, version=2)
    assert {d["code"] for d in again["diagnostics"]} == findings.codes - {findings.safe.code}
    assert len({line for line in server.stderr if "lint process" in line and "started" in line}) == 2
