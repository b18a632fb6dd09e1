"""Classic-Mac "\\r" line ends through the server: diagnostics on the right line, incremental
edits in place, and a fix-all edit that changes only what the fix changes (it used to write
`.item()` into the middle of line 2 and put every diagnostic on line 0)."""

from __future__ import annotations

from lsprotocol import types

from gradlint.source import split_lines_keepends

from test_lsp_actions import actions_at

BODY = [
    "import torch",
    "model = torch.nn.Linear(3, 1)",
    "total = 0",
    "for i in range(3):",
    "    loss = model(torch.randn(2, 3)).sum()",
    "    loss.backward()",
    "    total += loss",
    "print(total)",
]
CR_TEXT = "\r".join(BODY) + "\r"


def apply_lsp(text: str, edits: list[types.TextEdit]) -> str:
    """Apply edits as a client does: lines end at \\r\\n, \\r and \\n (columns: ASCII here)."""
    lines = split_lines_keepends(text)

    def offset(p: types.Position) -> int:
        return sum(len(ln) for ln in lines[: p.line]) + p.character

    for e in sorted(edits, key=lambda e: offset(e.range.start), reverse=True):
        text = text[: offset(e.range.start)] + e.new_text + text[offset(e.range.end) :]
    return text


async def test_cr_only_document_diagnostics_edits_and_fix_all(shared, neovim) -> None:
    lsp, client = shared, neovim
    path = lsp.write(lsp.unique().name, CR_TEXT.encode())
    uri = lsp.open(client, path, CR_TEXT)
    pub = await lsp.publish(client, uri, lambda p: p.version == 1)
    (gl205,) = [d for d in pub.diagnostics if d.code == "GL205"]
    assert (gl205.range.start.line, gl205.range.start.character) == (6, 4)

    (fix_all,) = await actions_at(client, uri, 0, only=["source.fixAll.gradlint"])
    if fix_all.edit is None:  # a client with resolve support gets the edit lazily
        fix_all = await client.code_action_resolve_async(fix_all)
    edit = fix_all.edit
    edits = list(edit.document_changes[0].edits) if edit.document_changes else list(edit.changes[uri])
    fixed = apply_lsp(CR_TEXT, edits)
    assert fixed == CR_TEXT.replace("    total += loss\r", "    total += loss.item()\r")

    # an incremental edit on line 5 (0-based) lands there: `loss.backward()` -> `loss.backward(`
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
            content_changes=[types.TextDocumentContentChangePartial(
                range=types.Range(start=types.Position(line=5, character=18), end=types.Position(line=5, character=19)), text="")],
        )
    )
    pub = await lsp.publish(client, uri, lambda p: p.version == 2)
    assert [(d.code, d.range.start.line) for d in pub.diagnostics] == [("GL001", 5)]
