"""Issue 17 in the editor: `# gradlint: constant=` reaches the check, and the verdict
diagnostic is a readable summary (whole sentences or words, no absolute path)."""

from __future__ import annotations

import asyncio

from gradlint_server import targets
from gradlint_server.gradcheck import SUMMARY_LIMIT, _summary
from lsprotocol import types

CODE = '''import torch


# gradlint: inputs=torch.randn(3, 4), torch.randn(4, 5)
# gradlint: constant=bank
def filter_bank(x, bank):
    return x @ bank


def wordy(x):
    return x
'''


def test_summary_cuts_at_a_sentence_and_drops_the_path() -> None:
    text = "The gradient of /ws/m.py::f is wrong, e.g. at x[0]. " * 20
    out = _summary(text, path="/ws/m.py")
    assert "/ws/m.py" not in out and out.startswith("The gradient of f is wrong")
    assert len(out) <= SUMMARY_LIMIT + 2 and out.endswith(". …")
    assert "e.g. …" not in out  # "e.g." does not end a sentence


def test_summary_cuts_a_single_long_sentence_at_a_word() -> None:
    out = _summary("supercalifragilistic " * 40, limit=100)
    assert out.endswith("supercalifragilistic …") and len(out) <= 102


def test_constant_comment_is_read() -> None:
    t = targets.find(CODE, "filter_bank")
    assert targets.comment_options(CODE, t) == {"inputs": "torch.randn(3, 4), torch.randn(4, 5)", "constant": "bank"}


async def test_constant_comment_and_the_diagnostic_text(lsp) -> None:
    client = await lsp.start("neovim", command=lsp.FAKE_WORKER_SERVER)
    path = lsp.write("model.py", CODE)
    uri = lsp.open(client, path)
    await lsp.publish(client, uri)

    async def check(target: str, **extra):
        return await asyncio.wait_for(client.workspace_execute_command_async(types.ExecuteCommandParams(
            command="gradlint.gradcheck", arguments=[{"uri": uri, "target": target, **extra}])), 30)

    report = await check(f"{path}::filter_bank")
    assert report["request"]["constants"] == ["bank"]
    report = await check(f"{path}::filter_bank", constant=["x", "bank"])  # a command argument wins
    assert report["request"]["constants"] == ["x", "bank"]

    await check(f"{path}::wordy")
    pub = await lsp.publish(client, uri, lambda p: any(d.code == "gradcheck" and "wordy" in d.message for d in p.diagnostics))
    (d,) = [d for d in pub.diagnostics if d.code == "gradcheck" and "wordy" in d.message]
    assert str(path) not in d.message
    assert d.message.startswith("gradients WRONG: The gradient of wordy was compared")
    assert d.message.endswith("element by element. …")
    assert not any(str(path) in m.message for m in client.messages)
