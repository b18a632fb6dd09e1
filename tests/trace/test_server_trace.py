"""The language server's "Trace this script": offered only where it makes sense, refused when
dynamic checks are off, and its findings follow their lines through edits."""

from __future__ import annotations

import asyncio
import types as pytypes

from lsprotocol import types

from gradlint.diagnostics import Diagnostic, Position, Severity
from gradlint_server import trace as trace_mod
from gradlint_server.positions import LineIndex

TRAIN = "import torch\nfor x in data:\n    loss = f(x)\n    loss.backward()\n    opt.step()\n"


def test_traceable_files():
    assert trace_mod.traceable(TRAIN)
    assert trace_mod.traceable("def main():\n    pass\n\nif __name__ == '__main__':\n    main()\n")
    assert not trace_mod.traceable("def helper(x):\n    return x.backward()\n")


def _view(text, path="/w/train.py", cell=False):
    return pytypes.SimpleNamespace(text=text, path=path, notebook_cell=cell, uri="file:///w/train.py")


def test_action_only_on_saved_scripts_and_disabled_when_untrusted():
    client = pytypes.SimpleNamespace(disabled_actions=True)
    action = trace_mod.trace_action(_view(TRAIN), client, enabled=True)
    assert action.title == "Trace this script" and action.command.command == "gradlint.trace"
    assert trace_mod.trace_action(_view(TRAIN, path=None), client, enabled=True) is None
    assert trace_mod.trace_action(_view(TRAIN, cell=True), client, enabled=True) is None
    off = trace_mod.trace_action(_view(TRAIN), client, enabled=False)
    assert off.disabled is not None and off.command is None
    assert trace_mod.trace_action(_view(TRAIN), pytypes.SimpleNamespace(disabled_actions=False), enabled=False) is None
    line = types.Position(line=TRAIN.count("\n"), character=0)
    assert trace_mod.trace_action(_view(TRAIN), client, True, types.Range(start=line, end=line)) is not None
    past = types.Position(line=TRAIN.count("\n") + 1, character=0)
    assert trace_mod.trace_action(_view(TRAIN), client, True, types.Range(start=past, end=past)) is None


def test_refused_without_dynamic_checks():
    shown = []
    host = pytypes.SimpleNamespace(settings=pytypes.SimpleNamespace(dynamic_checks=False),
                                   show=lambda kind, msg: shown.append(msg))
    result = asyncio.run(trace_mod.TraceService(host).run(({"uri": "file:///w/train.py"},)))
    assert result["status"] == "refused" and "dynamicChecks" in shown[0]


def test_findings_follow_their_lines():
    lines = ["a = 1", "loss.backward()", "b = 2"]
    assert trace_mod._relocate(lines, 2, "loss.backward()") == 2
    assert trace_mod._relocate(["# new", *lines], 2, "loss.backward()") == 3
    assert trace_mod._relocate(["a = 1", "loss.backward(retain_graph=True)", "b = 2"], 2, "loss.backward()") is None
    host = pytypes.SimpleNamespace(client=pytypes.SimpleNamespace(related_information=True))
    service = trace_mod.TraceService(host)
    d = Diagnostic("GL302", "missing-zero-grad", "m", Severity.ERROR, Position(2, 0), Position(2, 15), path="/w/train.py")
    service.by_path["/w/train.py"] = [trace_mod.Located(d, "loss.backward()")]
    text = "# moved\n" + "\n".join(lines) + "\n"
    out = service.diagnostics("file:///w/train.py", text, LineIndex(text, "utf-16"))
    assert [(x.code, x.range.start.line) for x in out] == [("GL302", 2)]
    assert isinstance(out[0], types.Diagnostic) and out[0].data["trace"]
