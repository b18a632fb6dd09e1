"""The gradient-check command's flow, with a scripted worker pool (fake_worker_server.py):
progress, verdict diagnostics, reports, cancellation by progress token and by $/cancelRequest,
a hanging check, refusal in untrusted workspaces, and a server that stays responsive."""

from __future__ import annotations

import asyncio

from lsprotocol import types

CODE = '''import torch


# gradlint: inputs=(torch.randn(3, dtype=torch.float64),)
def scale(x):
    return (x * 2.0).sum()


def broken(x):
    return x.sum()


def hang(x):
    return x


def hang_too(x):
    return x
'''


def line_of(snippet: str) -> int:
    return CODE.split("\n").index(snippet)


async def run_check(client, uri: str, target: str, token: str | None = None):
    return await asyncio.wait_for(
        client.workspace_execute_command_async(
            types.ExecuteCommandParams(command="gradlint.gradcheck", arguments=[{"uri": uri, "target": target}], work_done_token=token)
        ),
        30,
    )


async def test_check_reports_progress_verdict_and_report(lsp) -> None:
    client = await lsp.start("neovim", command=lsp.FAKE_WORKER_SERVER)
    path = lsp.write("model.py", CODE)
    uri = lsp.open(client, path)
    await lsp.publish(client, uri)

    report = await run_check(client, uri, f"{path}::scale")
    assert report["verdict"] == "pass"
    request = report["request"]
    assert request["target"] == f"{path}::scale"
    assert request["inputs"] == "(torch.randn(3, dtype=torch.float64),)"  # from the comment
    assert request["cwd"] == str(lsp.root)

    # progress: begin (cancellable) -> report -> end, on a token the server created
    (token, events) = next(iter(client.progress_reports.items()))
    assert events[0].kind == "begin" and events[0].cancellable and events[0].title == "Checking gradients of scale"
    assert "building inputs" in [e.message for e in events if e.kind == "report"]
    assert events[-1].kind == "end" and events[-1].message.startswith("pass")

    # the verdict is a diagnostic on the def line, merged with the lint findings
    pub = await lsp.publish(client, uri, lambda p: any(d.code == "gradcheck" for d in p.diagnostics))
    (verdict,) = [d for d in pub.diagnostics if d.code == "gradcheck"]
    assert verdict.severity == types.DiagnosticSeverity.Information
    assert verdict.range.start.line == line_of("def scale(x):")
    assert CODE.split("\n")[verdict.range.start.line][verdict.range.start.character : verdict.range.end.character] == "scale"
    assert "fake pass" in verdict.message
    assert any("scale" in m.message and "gradients OK" in m.message for m in client.messages)

    # the full report is one click away: a code action on the verdict, and gradlint.showReport
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), range=verdict.range,
        context=types.CodeActionContext(diagnostics=[verdict]),
    ))
    show = next(a for a in actions if a.command and a.command.command == "gradlint.showReport")
    shown = await client.workspace_execute_command_async(types.ExecuteCommandParams(command=show.command.command, arguments=show.command.arguments))
    assert shown == report

    # a failing target: an error on its line; the worker is the same warm one
    failed = await run_check(client, uri, "broken")
    assert failed["verdict"] == "fail" and failed["worker"] == report["worker"] and failed["runs"] == 2
    pub = await lsp.publish(client, uri, lambda p: sum(d.code == "gradcheck" for d in p.diagnostics) == 2)
    sev = {d.range.start.line: d.severity for d in pub.diagnostics if d.code == "gradcheck"}
    assert sev[line_of("def broken(x):")] == types.DiagnosticSeverity.Error

    # editing the checked function retires its verdict; moving code keeps the other one
    edited = "\n\n" + CODE.replace("return (x * 2.0).sum()", "return (x * 3.0).sum()")
    lsp.replace_all(client, uri, edited, 2)
    pub = await lsp.publish(client, uri, lambda p: p.version == 2)
    assert [(d.range.start.line, d.message.split(":")[0]) for d in pub.diagnostics if d.code == "gradcheck"] == [(line_of("def broken(x):") + 2, "gradients WRONG")]


async def test_cancel_by_progress_token_and_by_cancel_request(lsp) -> None:
    client = await lsp.start("vscode", command=lsp.FAKE_WORKER_SERVER)
    path = lsp.write("model.py", CODE)
    uri = lsp.open(client, path)
    check = asyncio.ensure_future(run_check(client, uri, "hang"))
    token = await lsp.until(lambda: next(iter(client.progress_reports), None), what="progress")
    await lsp.until(lambda: len(client.progress_reports[token]) >= 1, what="progress begin")
    # the server keeps serving while the check runs
    report = await asyncio.wait_for(lsp.pull(client, uri), 5)
    assert report.kind == "full"
    client.window_work_done_progress_cancel(types.WorkDoneProgressCancelParams(token=token))
    result = await asyncio.wait_for(check, 10)
    assert result["cancelled"] is True and result["waited"] < 5
    assert client.progress_reports[token][-1].kind == "end"
    assert any("cancelled" in m.message for m in client.messages)

    # $/cancelRequest on the command request stops the check too
    fut = client.protocol.send_request(
        types.WORKSPACE_EXECUTE_COMMAND,
        types.ExecuteCommandParams(command="gradlint.gradcheck", arguments=[{"uri": uri, "target": "hang_too"}]),
        msg_id="check-to-cancel",
    )
    await lsp.until(lambda: len(client.progress_reports) == 2, what="second progress")
    client.cancel_request(types.CancelParams(id="check-to-cancel"))
    with_error = None
    try:
        await asyncio.wait_for(asyncio.wrap_future(fut), 10)
    except Exception as exc:  # pygls answers the cancelled request with an error
        with_error = exc
    assert with_error is not None
    second = [t for t in client.progress_reports if t != token][0]
    await lsp.until(lambda: client.progress_reports[second][-1].kind == "end", timeout=10, what="end of the cancelled check")
    assert client.progress_reports[second][-1].message == "cancelled"


async def test_hanging_check_times_out_and_client_token_is_used(lsp) -> None:
    client = await lsp.start("neovim", command=lsp.FAKE_WORKER_SERVER, init={"gradcheckTimeout": 0.5})
    path = lsp.write("model.py", CODE)
    uri = lsp.open(client, path)
    client.progress_reports["client-token"] = []
    report = await run_check(client, uri, "hang", token="client-token")
    assert report["verdict"] == "error" and "longer than 0.5 s" in report["explanation"]
    assert [e.kind for e in client.progress_reports["client-token"]][0] == "begin"
    pub = await lsp.publish(client, uri, lambda p: any(d.code == "gradcheck" for d in p.diagnostics))
    (verdict,) = [d for d in pub.diagnostics if d.code == "gradcheck"]
    assert verdict.severity == types.DiagnosticSeverity.Warning


async def test_refused_when_untrusted_and_bad_arguments(lsp) -> None:
    client = await lsp.start("neovim", command=lsp.FAKE_WORKER_SERVER, init={"dynamicChecks": False}, settings={"dynamicChecks": True})
    path = lsp.write("model.py", CODE)
    uri = lsp.open(client, path)
    report = await run_check(client, uri, "scale")
    assert report["verdict"] == "refused" and "dynamicChecks" in report["explanation"]
    assert "request" not in report  # the worker never ran
    assert any("dynamicChecks" in m.message for m in client.messages)

    trusted = await lsp.start("neovim", command=lsp.FAKE_WORKER_SERVER)
    uri = lsp.open(trusted, path)
    for args in ([], [42], [{"uri": uri, "line": 0}], [{"target": "scale"}], [{"uri": uri, "line": "x"}]):
        try:
            await asyncio.wait_for(trusted.workspace_execute_command_async(types.ExecuteCommandParams(command="gradlint.gradcheck", arguments=args)), 10)
        except Exception as exc:
            assert "Invalid Params" in str(exc) or "-32602" in str(exc) or "invalid" in str(exc).lower()
        else:
            raise AssertionError(f"{args!r} should be rejected")
    assert await trusted.workspace_execute_command_async(types.ExecuteCommandParams(command="gradlint.showReport", arguments=[{"uri": uri, "target": "scale"}])) is None
    # a name the outline does not offer goes to the checker as it is (it may know it)
    report = await run_check(trusted, uri, "Mystery.method")
    assert report["request"]["target"].endswith("::Mystery.method") and report["verdict"] == "inconclusive"
