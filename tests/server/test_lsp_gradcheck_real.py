"""The gradient-check command with the real dynamic worker (gradlint.dynamic.worker) and torch:
a wrong backward is caught, a correct function passes, a hanging target is cancelled through
the progress token (its process group is killed) and the warm worker comes back for the next
check."""

from __future__ import annotations

import asyncio
import importlib.util
import time

import pytest
from lsprotocol import types

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("torch") is None or importlib.util.find_spec("gradlint.dynamic.worker") is None,
    reason="needs torch and gradlint.dynamic.worker",
)

CODE = '''import torch


# gradlint: inputs=(torch.randn(4, dtype=torch.float64),)
def scale(x):
    return (x * 2.0).sum()


class Square(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return 3 * x * g  # wrong: d(x*x)/dx is 2x


# gradlint: inputs=(torch.randn(3),)
def spin(x):
    while True:
        pass
'''


async def check(client, uri: str, target: str):
    return await asyncio.wait_for(client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="gradlint.gradcheck", arguments=[{"uri": uri, "target": target}])
    ), 120)


async def test_real_checks_verdicts_cancel_and_warm_restart(lsp) -> None:
    client = await lsp.start("vscode", init={"gradcheckTimeout": 60})
    path = lsp.write("ops.py", CODE)
    uri = lsp.open(client, path)
    lines = CODE.split("\n")

    wrong = await check(client, uri, f"{path}::Square")
    assert wrong["verdict"] == "fail", wrong["explanation"]
    ok = await check(client, uri, "scale")
    assert ok["verdict"] == "pass", ok["explanation"]
    assert ok.get("inputs_source") in (None, "explicit")  # the comment's inputs were used
    items = (await lsp.pull(client, uri)).items
    verdicts = {d.range.start.line: d.severity for d in items if d.code == "gradcheck"}
    assert verdicts == {lines.index("class Square(torch.autograd.Function):"): types.DiagnosticSeverity.Error,
                        lines.index("def scale(x):"): types.DiagnosticSeverity.Information}

    # a target that never returns: cancel through the progress token
    spinning = asyncio.ensure_future(check(client, uri, "spin"))
    seen = set(client.progress_reports)
    token = await lsp.until(lambda: next((t for t in client.progress_reports if t not in seen), None), what="progress")
    await lsp.until(lambda: any(e.kind == "report" and "checking" in (e.message or "") for e in client.progress_reports[token]), timeout=60, what="the check to start")
    t0 = time.monotonic()
    client.window_work_done_progress_cancel(types.WorkDoneProgressCancelParams(token=token))
    cancelled = await asyncio.wait_for(spinning, 30)
    assert cancelled["cancelled"] is True and time.monotonic() - t0 < 10

    # the next check gets a fresh warm worker
    again = await check(client, uri, "scale")
    assert again["verdict"] == "pass"
