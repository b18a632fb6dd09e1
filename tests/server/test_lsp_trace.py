"""The `gradlint.trace` command and the "Trace this script" code action, end to end: a real
server runs a real traced training program (torch) and shows its findings in every file they
concern, at the lines where they happened; with dynamic checks off, or in an untrusted
workspace (whose own settings cannot turn them back on), the trace is refused and the program
never runs."""

from __future__ import annotations

import asyncio
import importlib.util
import os
import sys

import pytest
from lsprotocol import types

pytestmark = pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="the traced program needs torch")

HELPERS = '''\
def scaled(out, scale):
    return out * scale.item()  # cuts `scale` from the loss
'''

TRAIN = '''\
import pathlib

import torch
import torch.nn as nn

from helpers import scaled

pathlib.Path(__file__).with_name("ran.marker").write_text("the program ran")
torch.manual_seed(0)
model = nn.Linear(8, 1)
scale = nn.Parameter(torch.ones(1))
opt = torch.optim.SGD(list(model.parameters()) + [scale], lr=0.01)
for step in range(20):
    x, y = torch.randn(32, 8), torch.randn(32, 1)
    loss = nn.functional.mse_loss(scaled(model(x), scale), y)
    loss.backward()  # no zero_grad: gradients accumulate across steps
    opt.step()
'''

CUT = HELPERS.splitlines().index("    return out * scale.item()  # cuts `scale` from the loss")  # 0-based
BACKWARD = TRAIN.splitlines().index("    loss.backward()  # no zero_grad: gradients accumulate across steps")


async def trace(client, arguments: list, timeout: float = 150):
    return await asyncio.wait_for(client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="gradlint.trace", arguments=arguments)), timeout)


async def actions(client, uri: str, line: int = 0) -> list:
    return list(await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        range=types.Range(start=types.Position(line, 0), end=types.Position(line, 0)),
        context=types.CodeActionContext(diagnostics=[]))) or [])


def traced(items) -> list[tuple[str, int]]:
    return sorted((d.code, d.range.start.line) for d in items if (d.data or {}).get("trace"))


def project(lsp):
    helpers = lsp.write("helpers.py", HELPERS)
    train = lsp.write("train.py", TRAIN)
    return train, helpers, lsp.root / "ran.marker"


async def test_trace_action_runs_the_program_and_shows_findings_at_their_lines(lsp) -> None:
    client = await lsp.start("vscode", init={"gradcheckTimeout": 120})
    train, helpers, marker = project(lsp)
    uri = lsp.open(client, train)
    helpers_uri = lsp.open(client, helpers)

    # the code action, run as an editor runs it: its command
    (action,) = [a for a in await actions(client, uri) if a.title == "Trace this script"]
    assert action.disabled is None and action.command.command == "gradlint.trace"
    assert not [a for a in await actions(client, helpers_uri) if a.title == "Trace this script"]  # no loop, no main

    report = await trace(client, action.command.arguments)
    assert report["status"] == "stopped" and report["steps"] == 3, report
    assert marker.read_text() == "the program ran"
    assert any(m.type == types.MessageType.Warning and "2 findings" in m.message for m in client.messages)

    # in every file the findings concern, at their lines, beside the static diagnostics
    assert traced((await lsp.pull(client, uri)).items) == [("GL302", BACKWARD)]
    assert traced((await lsp.pull(client, helpers_uri)).items) == [("GL101", CUT)]

    # an edit above a finding moves it with its line; changing the line drops it
    lsp.replace_all(client, uri, "# a new first line\n" + TRAIN, 2)
    assert traced((await lsp.pull(client, uri)).items) == [("GL302", BACKWARD + 1)]
    lsp.replace_all(client, uri, TRAIN.replace("    loss.backward()  # no zero_grad", "    loss.backward()  # edited"), 3)
    assert traced((await lsp.pull(client, uri)).items) == []


async def test_push_clients_get_the_findings_published(lsp) -> None:
    client = await lsp.start("neovim", init={"gradcheckTimeout": 120})
    train, helpers, _ = project(lsp)
    uri = lsp.open(client, train)
    helpers_uri = lsp.open(client, helpers)
    await lsp.publish(client, helpers_uri)
    since = len(client.published)

    report = await trace(client, [{"uri": uri, "steps": 2}])
    assert report["status"] == "stopped" and report["steps"] == 2, report
    published = await lsp.publish(client, helpers_uri, lambda p: bool(traced(p.diagnostics)), since=since)
    assert traced(published.diagnostics) == [("GL101", CUT)]
    published = await lsp.publish(client, uri, lambda p: bool(traced(p.diagnostics)), since=since)
    assert traced(published.diagnostics) == [("GL302", BACKWARD)]


HANG = '''\
import os
import pathlib
import time

if __name__ == "__main__":
    pathlib.Path(__file__).with_name("hang.pid").write_text(str(os.getpid()))
    while True:  # never reaches an optimizer step
        time.sleep(0.01)
'''


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="looks for the program in /proc")
async def test_waiting_and_running_traces_are_cancelled_by_their_progress_tokens(lsp) -> None:
    """On the client's own workDoneTokens: a trace waits for the running one (one at a time)
    and either can be cancelled; the program is stopped, and the findings of the last finished
    trace stay (a cancelled trace saw nothing)."""
    client = await lsp.start("vscode", init={"gradcheckTimeout": 120})
    train, _, _ = project(lsp)
    hang = lsp.write("hang.py", HANG)
    uri = lsp.open(client, train)
    hang_uri = lsp.open(client, hang)
    for token in ("first", "running", "waiting"):
        client.progress_reports[token] = []

    async def trace_with(token: str, target: str):
        return await asyncio.wait_for(client.workspace_execute_command_async(types.ExecuteCommandParams(
            command="gradlint.trace", arguments=[{"uri": target}], work_done_token=token)), 150)

    def said(token: str, words: str) -> bool:
        return any(words in (getattr(e, "message", None) or "") for e in client.progress_reports[token])

    report = await trace_with("first", uri)
    assert report["status"] == "stopped", report
    assert client.progress_reports["first"][0].title == "Tracing train.py"
    assert client.progress_reports["first"][-1].kind == "end"
    assert traced((await lsp.pull(client, uri)).items) == [("GL302", BACKWARD)]

    running = asyncio.ensure_future(trace_with("running", hang_uri))
    await lsp.until(lambda: (lsp.root / "hang.pid").exists(), timeout=60, what="the hanging program")
    waiting = asyncio.ensure_future(trace_with("waiting", uri))
    await lsp.until(lambda: said("waiting", "waiting for the running trace"), what="the second trace to wait")

    client.window_work_done_progress_cancel(types.WorkDoneProgressCancelParams(token="waiting"))
    report = await asyncio.wait_for(waiting, 10)
    assert report["error"]["kind"] == "cancelled" and not running.done(), report
    client.window_work_done_progress_cancel(types.WorkDoneProgressCancelParams(token="running"))
    report = await asyncio.wait_for(running, 10)
    assert report["status"] == "error" and report["error"]["kind"] == "cancelled", report
    assert [e.message for e in client.progress_reports["running"][-1:]] == ["cancelled"]
    pid = int((lsp.root / "hang.pid").read_text())
    await lsp.until(lambda: not os.path.exists(f"/proc/{pid}"), timeout=5, what="the program to be gone")
    assert any(m.type == types.MessageType.Info and "trace of hang.py cancelled" in m.message for m in client.messages)
    assert traced((await lsp.pull(client, uri)).items) == [("GL302", BACKWARD)]


@pytest.mark.parametrize("settings", [
    pytest.param({"init": {"dynamicChecks": False}}, id="dynamic-checks-off"),
    # the editor turns dynamic checks off for an untrusted workspace; that workspace's own
    # settings say true, which must not turn them back on
    pytest.param({"init": {"dynamicChecks": False}, "settings": {"dynamicChecks": True}}, id="untrusted"),
])
async def test_refused_and_nothing_runs(lsp, settings) -> None:
    client = await lsp.start("vscode", **settings)
    train, _, marker = project(lsp)
    uri = lsp.open(client, train)

    (action,) = [a for a in await actions(client, uri) if a.title == "Trace this script"]
    assert action.command is None and "dynamicChecks" in action.disabled.reason

    report = await trace(client, [{"uri": uri}], timeout=30)
    assert report["status"] == "refused" and "dynamicChecks" in report["message"], report
    assert any(m.type == types.MessageType.Warning and "dynamicChecks" in m.message for m in client.messages)
    # the command answers only when its trace has ended: had the program run, its marker would exist
    assert not marker.exists(), "the program ran"
    assert traced((await lsp.pull(client, uri)).items) == []
