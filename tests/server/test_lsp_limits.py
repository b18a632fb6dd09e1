"""One pathological buffer cannot hold up the others: a check that runs past its time limit is
stopped (its lint process replaced) with a "not checked" diagnostic, and while it runs the
other documents are checked in a second lint process. The attack report's parser bombs end at
once with GL001/GL004, and a crashed lint process is reported in words."""

from __future__ import annotations

import asyncio
import os
import re
import time

# Valid, under every parse bound (limits.py), and slow all the same by sheer size (just under
# maxFileSize): ~7 s of CPU here, at least a few seconds on the fastest machines.
HEAVY = (
    "import torch\nw = torch.randn(3, requires_grad=True)\n"
    + "".join(f"x{i} = w * {i} + w.sum() - f(w, {i})\n" for i in range(23_000))
    + "w.sum().backward()\n"
)
LIMIT_S = 1.5


async def test_a_heavy_buffer_is_cut_off_while_other_documents_keep_flowing(lsp, findings) -> None:
    client = await lsp.start("neovim", init={"fileTimeout": LIMIT_S})
    # two documents at once: the second finds the first lint process busy and starts another
    a, b = (lsp.open(client, lsp.write(name, findings.text)) for name in ("a.py", "b.py"))
    for uri in (a, b):
        got = await lsp.publish(client, uri, lambda p: p.version == 1, timeout=60)
        assert {d.code for d in got.diagnostics} == findings.codes

    heavy = lsp.open(client, lsp.write("heavy.py", HEAVY))
    await asyncio.sleep(0.3)  # one lint process is busy with it now
    since = len(client.published)
    t0 = time.monotonic()
    lsp.replace_all(client, a, findings.fixed, version=2)
    second = await lsp.publish(client, a, lambda p: p.version == 2, since=since, timeout=60)
    latency = time.monotonic() - t0
    assert {d.code for d in second.diagnostics} == findings.codes - {findings.safe.code}
    # ...while the heavy buffer was still being checked, in the other process
    before = client.published[since : client.published.index(second)]
    assert not [p for p in before if p.uri == heavy], latency
    assert latency < LIMIT_S, latency

    cut = await lsp.publish(client, heavy, timeout=2 * LIMIT_S + 30)
    messages = [d.message for d in cut.diagnostics]
    assert messages == [f"gradlint: not checked — checking took longer than {LIMIT_S} s and was stopped "
                        "(a very large or deeply nested buffer?); the next edit is checked again"], messages

    # the stopped process was replaced: the buffer, once edited into ordinary code, is checked
    lsp.replace_all(client, heavy, findings.text, version=2)
    healed = await lsp.publish(client, heavy, lambda p: p.version == 2, timeout=60)
    assert {d.code for d in healed.diagnostics} == findings.codes


# the attack report's buffers (lsp_engine_attacks.py), a normal document beside them
BOMBS = {
    "deep.py": ("x = " + "(" * 3000 + "1" + ")" * 3000 + "\n", "GL001", "SyntaxError: too many nested parentheses"),
    "chain.py": ("import torch\nw = torch.randn(3, requires_grad=True)\nloss = " + " + ".join(["w.sum()"] * 10_000) + "\nloss.backward()\n",
                 "GL004", "not analysed: an expression chains or nests about 30,000 operations"),
}


async def test_parser_bombs_end_at_once_and_others_are_not_held_up(lsp, findings) -> None:
    client = await lsp.start("neovim")
    t0 = time.monotonic()
    uris = {name: lsp.open(client, lsp.write(name, text)) for name, (text, _, _) in BOMBS.items()}
    other = lsp.open(client, lsp.write("other.py", findings.text))
    for name, (_, code, message) in BOMBS.items():
        got = await lsp.publish(client, uris[name], timeout=30)
        assert [(d.code, d.message[: len(message)]) for d in got.diagnostics] == [(code, message)]
    got = await lsp.publish(client, other, timeout=30)
    assert {d.code for d in got.diagnostics} == findings.codes
    assert time.monotonic() - t0 < 10


async def test_a_crashed_lint_process_is_reported_in_words(raw, tmp_path, findings) -> None:
    server = await raw("--log-level", "debug")
    await server.initialize(tmp_path)
    path = tmp_path / "p.py"
    path.write_text(findings.text)
    uri = server.open(path)
    await server.diagnostics(uri, version=1)
    # Kill the process twice while it checks version 2 (the server retries once with a fresh
    # one): the buffer is then "not checked", and the message says why without a repr.
    server.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": HEAVY}]})
    killed: set[int] = set()
    deadline = time.monotonic() + 60
    while len(killed) < 2 and time.monotonic() < deadline:
        for line in list(server.stderr):
            m = re.search(r"lint process (\d+) started", line)
            if m and int(m.group(1)) not in killed and len(killed) < 2 and _alive(int(m.group(1))):
                await asyncio.sleep(0.5)  # let it take the request
                os.kill(int(m.group(1)), 11)
                killed.add(int(m.group(1)))
        await asyncio.sleep(0.05)
    got = await server.diagnostics(uri, version=2)
    (diag,) = got["diagnostics"]
    assert diag["message"].startswith("gradlint: not checked — the lint process was killed by SIGSEGV while checking it")
    assert "IncompleteReadError" not in diag["message"] and "(" + "'" not in diag["message"]


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
        return True
    except OSError:
        return False

