"""Diagnostics end to end: push (Neovim-like, UTF-8) and pull (VS Code-like, UTF-16), versions,
debounce, save, close, half-typed code."""

from __future__ import annotations

import asyncio

from lsprotocol import types

from gradlint.engine import check_source


def unit_slice(line: str, start: int, end: int, encoding: str) -> str:
    """The text between two code-unit columns, computed independently of the server."""
    if encoding == "utf-16":
        data, width, codec = line.encode("utf-16-le"), 2, "utf-16-le"
    else:
        data, width, codec = line.encode("utf-8"), 1, "utf-8"
    return data[start * width : end * width].decode(codec)


def assert_ranges_match_engine(text: str, path: str, items: list[types.Diagnostic], encoding: str) -> None:
    lines = text.split("\n")
    engine = {(d.code, d.start.line): d for d in check_source(text, path)}
    assert items, "expected findings in the fixture"
    for item in items:
        eng = engine[(item.code, item.range.start.line + 1)]
        assert item.range.start.line == item.range.end.line == eng.start.line - 1
        line = lines[item.range.start.line]
        expected = line[eng.start.column : eng.end.column]
        assert unit_slice(line, item.range.start.character, item.range.end.character, encoding) == expected


async def test_push_on_open_with_utf8_columns_and_lsp_fields(shared, neovim, findings) -> None:
    lsp, client = shared, neovim
    assert client.init_result.capabilities.position_encoding == "utf-8"
    assert client.init_result.capabilities.diagnostic_provider is None  # a push client is pushed to
    path = lsp.copy_fixture("pitfalls.py", lsp.unique().name)
    uri = lsp.open(client, path)
    pub = await lsp.publish(client, uri)
    assert pub.version == 1
    assert {d.code for d in pub.diagnostics} == findings.codes
    for d in pub.diagnostics:
        assert d.source == "gradlint"
        assert d.code_description.href.endswith(f"{d.code}.md")
        assert d.data["version"] == 1
    safe = next(d for d in pub.diagnostics if d.code == findings.safe.code)
    assert safe.severity == types.DiagnosticSeverity(int(findings.safe.severity))
    assert safe.data["fix"]["safe"] is True
    assert safe.data["fix"]["edits"][0]["newText"] == findings.safe.fix.edits[0].content
    # the safe finding's line has "é" and "😀" before it: 2 + 4 extra UTF-8 bytes
    assert_ranges_match_engine(findings.text, str(path), list(pub.diagnostics), "utf-8")


async def test_pull_serves_utf16_and_never_pushes(shared, vscode, findings) -> None:
    pitfalls = findings.text
    lsp, client = shared, vscode
    caps = client.init_result.capabilities
    assert caps.position_encoding == "utf-16"
    assert caps.diagnostic_provider is not None and caps.diagnostic_provider.identifier == "gradlint"
    path = lsp.copy_fixture("pitfalls.py", lsp.unique().name)
    uri = lsp.open(client, path)
    report = await lsp.pull(client, uri)
    assert report.kind == "full"
    assert_ranges_match_engine(pitfalls, str(path), list(report.items), "utf-16")
    again = await lsp.pull(client, uri, previous=report.result_id)
    assert again.kind == "unchanged" and again.result_id == report.result_id
    lsp.replace_all(client, uri, findings.fixed, 2)
    changed = await lsp.pull(client, uri, previous=report.result_id)
    assert changed.kind == "full" and findings.safe.code not in {d.code for d in changed.items}
    await asyncio.sleep(0.2)
    assert not [p for p in client.published if p.uri == uri]


async def test_only_the_newest_version_is_published_and_close_clears(shared, neovim, findings) -> None:
    pitfalls = findings.text
    lsp, client = shared, neovim  # debounce 50 ms: the burst below takes a few ms
    path = lsp.copy_fixture("pitfalls.py", lsp.unique().name)
    uri = lsp.open(client, path)
    await lsp.publish(client, uri, lambda p: p.version == 1)
    start = len(client.published)
    for version in range(2, 42):  # a burst of edits inside one debounce window
        text = pitfalls if version % 2 else findings.fixed
        lsp.replace_all(client, uri, text, version)
    final = await lsp.publish(client, uri, lambda p: p.version == 41, since=start)
    await asyncio.sleep(0.3)
    assert [p.version for p in client.published[start:] if p.uri == uri] == [41]
    assert {d.code for d in final.diagnostics} == findings.codes  # version 41 is the odd one: unfixed

    # save publishes again (unchanged text: no new check needed)
    start = len(client.published)
    client.text_document_did_save(types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri)))
    saved = await lsp.publish(client, uri, since=start)
    assert saved.version == 41 and saved.diagnostics == final.diagnostics

    start = len(client.published)
    client.text_document_did_close(types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri)))
    cleared = await lsp.publish(client, uri, since=start)
    assert list(cleared.diagnostics) == []


async def test_half_typed_code_reports_gl001_then_recovers(shared, neovim) -> None:
    lsp, client = shared, neovim
    path = lsp.write(lsp.unique().name, "import torch\n")
    uri = lsp.open(client, path)
    await lsp.publish(client, uri, lambda p: p.version == 1)
    for version, text in enumerate(["import torch\nx = torch.randn(3", "import torch\nx = torch.randn(3,", "import torch\nclass M(:\n"], start=2):
        lsp.replace_all(client, uri, text, version)
        pub = await lsp.publish(client, uri, lambda p, v=version: p.version == v)
        assert [d.code for d in pub.diagnostics] == ["GL001"]
        assert pub.diagnostics[0].severity == types.DiagnosticSeverity.Error
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), range=pub.diagnostics[0].range,
        context=types.CodeActionContext(diagnostics=list(pub.diagnostics))))
    assert not [a for a in actions or [] if "GL001" in a.title]  # fixed, not silenced
    lsp.replace_all(client, uri, "import torch\nx = torch.randn(3)\n", 9)
    pub = await lsp.publish(client, uri, lambda p: p.version == 9)
    assert list(pub.diagnostics) == []


async def test_incremental_edits_after_a_form_feed_land_in_place(shared, neovim) -> None:
    """pygls splits lines on \\f too; the server must split on \\n only, as LSP does."""
    lsp, client = shared, neovim
    text = "import torch\n\x0c\nmodel = torch.nn.Linear(2, 1)\nx = 1\n"
    path = lsp.write(lsp.unique().name, text)
    uri = lsp.open(client, path, text)
    await lsp.publish(client, uri, lambda p: p.version == 1)
    # turn line 3 ("x = 1") into a half-typed line: GL001 must point at line 3
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
            content_changes=[types.TextDocumentContentChangePartial(
                range=types.Range(start=types.Position(line=3, character=4), end=types.Position(line=3, character=5)), text="(")],
        )
    )
    pub = await lsp.publish(client, uri, lambda p: p.version == 2)
    assert [(d.code, d.range.start.line) for d in pub.diagnostics] == [("GL001", 3)]


async def test_unsaved_buffers_and_other_languages(shared, neovim, findings) -> None:
    lsp, client = shared, neovim
    uri = "untitled:Untitled-1"
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=uri, language_id="python", version=1, text=findings.text)))
    pub = await lsp.publish(client, uri)
    assert {d.code for d in pub.diagnostics} == findings.codes
    toml = lsp.write(lsp.unique(".toml").name, "[tool.gradlint\n")
    lsp.open(client, toml, language="toml")  # not Python: never linted
    await asyncio.sleep(0.3)
    assert not [p for p in client.published if p.uri == toml.as_uri()]
