"""Code actions and hover end to end: quick fixes, noqa, fix-all (eager and via resolve), the
gradient-check action, hover with the rule page."""

from __future__ import annotations

from lsprotocol import types

from gradlint.engine import fix_source


def _offset(lines: list[str], pos: types.Position, encoding: str) -> int:
    line = lines[pos.line] if pos.line < len(lines) else ""
    if encoding == "utf-16":
        prefix = line.encode("utf-16-le")[: pos.character * 2].decode("utf-16-le")
    else:
        prefix = line.encode("utf-8")[: pos.character].decode("utf-8")
    return sum(len(ln) + 1 for ln in lines[: pos.line]) + len(prefix)


def apply(text: str, edit: types.WorkspaceEdit, uri: str, version: int | None, encoding: str) -> str:
    if edit.document_changes:
        (change,) = edit.document_changes
        assert change.text_document.uri == uri and change.text_document.version == version
        edits = list(change.edits)
    else:
        edits = list(edit.changes[uri])
    lines = text.split("\n")
    spans = sorted(((_offset(lines, e.range.start, encoding), _offset(lines, e.range.end, encoding), e.new_text) for e in edits), reverse=True)
    for start, end, new in spans:
        text = text[:start] + new + text[end:]
    return text


def _line_range(line: int) -> types.Range:
    return types.Range(start=types.Position(line=line, character=0), end=types.Position(line=line, character=200))


async def actions_at(client, uri: str, line: int, only=None, diagnostics=()) -> list:
    return list(await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            range=_line_range(line),
            context=types.CodeActionContext(diagnostics=list(diagnostics), only=only),
        )
    ) or [])


async def test_quickfix_noqa_and_the_fix_applies(shared, neovim, findings) -> None:
    pitfalls, code = findings.text, findings.safe.code
    lsp, client = shared, neovim
    path = lsp.copy_fixture("pitfalls.py", lsp.unique().name)
    uri = lsp.open(client, path)
    pub = await lsp.publish(client, uri)
    target = next(d for d in pub.diagnostics if d.code == code)
    acts = await actions_at(client, uri, target.range.start.line, diagnostics=[target])
    titles = [a.title for a in acts]
    fix = next(a for a in acts if a.kind == "quickfix" and code in a.title and not a.title.startswith("Disable"))
    assert fix.is_preferred is True  # a safe fix
    assert fix.diagnostics[0].code == code
    assert apply(pitfalls, fix.edit, uri, 1, "utf-8") == findings.fixed
    assert f"Disable {code} for this line" in titles
    noqa = next(a for a in acts if a.title == f"Disable {code} for this line")
    silenced = apply(pitfalls, noqa.edit, uri, 1, "utf-8")
    assert silenced.split("\n")[target.range.start.line] == pitfalls.split("\n")[target.range.start.line].rstrip() + f"  # noqa: {code}"

    # the edited buffer is linted again: the finding is gone, the others stay
    lsp.replace_all(client, uri, silenced, 2)
    pub2 = await lsp.publish(client, uri, lambda p: p.version == 2)
    assert {d.code for d in pub2.diagnostics} == findings.codes - {code} or (
        code in {d.code for d in pub2.diagnostics if d.range.start.line != target.range.start.line})

    # an unsafe fix is offered but not preferred
    unsafe = next(d for d in pub2.diagnostics if d.code == findings.unsafe.code)
    acts = await actions_at(client, uri, unsafe.range.start.line, only=[types.CodeActionKind.QuickFix])
    offered = next(a for a in acts if findings.unsafe.code in a.title and not a.title.startswith("Disable"))
    assert not offered.is_preferred
    assert all(a.kind == "quickfix" for a in acts)


async def test_fix_all_eager_and_resolved_match_the_cli(lsp, shared, vscode, pitfalls) -> None:
    expected, n = fix_source(pitfalls, str(lsp.root / "pitfalls.py"))
    assert n >= 1
    # VS Code-like: resolveSupport for "edit" -> a lazy action completed by codeAction/resolve
    path = shared.copy_fixture("pitfalls.py", shared.unique().name)
    uri = lsp.open(vscode, path)
    acts = await actions_at(vscode, uri, 0, only=["source.fixAll"])
    assert [a.kind for a in acts] == ["source.fixAll.gradlint"]
    assert acts[0].edit is None
    resolved = await vscode.code_action_resolve_async(acts[0])
    assert apply(pitfalls, resolved.edit, uri, 1, "utf-16") == expected
    # asking for quickfixes only never computes fix-all; "source" covers "source.fixAll.gradlint"
    assert all(a.kind == "quickfix" for a in await actions_at(vscode, uri, 0, only=["quickfix"]))
    assert [a.kind for a in await actions_at(vscode, uri, 0, only=["source"])] == ["source.fixAll.gradlint"]

    # a client without resolve support gets the edit right away
    caps = lsp.capabilities("vscode")
    caps.text_document.code_action.resolve_support = None
    plain = await lsp.start("vscode", capabilities=caps)
    uri2 = lsp.open(plain, path)
    (action,) = await actions_at(plain, uri2, 0, only=["source.fixAll.gradlint"])
    assert apply(pitfalls, action.edit, uri2, 1, "utf-16") == expected


async def test_gradcheck_action_targets(shared, vscode, pitfalls) -> None:
    lsp, client = shared, vscode
    path = lsp.copy_fixture("pitfalls.py", lsp.unique().name)
    uri = lsp.open(client, path)
    lines = pitfalls.split("\n")

    async def gradcheck_titles(snippet: str) -> list[str]:
        acts = await actions_at(client, uri, lines.index(snippet))
        return [a.title for a in acts if a.command is not None and a.command.command == "gradlint.gradcheck"]

    assert await gradcheck_titles("    y = x * 2.0") == ["Check gradients of scale"]
    assert await gradcheck_titles("        return 2 * x * g") == ["Check gradients of Square"]
    assert await gradcheck_titles("import torch") == []
    acts = await actions_at(client, uri, lines.index("    y = x * 2.0"))
    # the fixture is also a training script, so "Trace this script" is offered beside it
    (cmd,) = [a.command for a in acts if a.command is not None and a.command.command == "gradlint.gradcheck"]
    assert list(cmd.arguments) == [{"uri": uri, "target": f"{path}::scale", "line": lines.index("def scale(x):")}]


async def test_untrusted_workspace_gets_a_disabled_action(lsp, pitfalls) -> None:
    client = await lsp.start("vscode", init={"dynamicChecks": False}, settings={"dynamicChecks": True})
    path = lsp.copy_fixture("pitfalls.py")
    uri = lsp.open(client, path)
    acts = await actions_at(client, uri, pitfalls.split("\n").index("    y = x * 2.0"))
    (action,) = [a for a in acts if a.title == "Check gradients of scale"]
    assert action.command is None and "dynamicChecks" in action.disabled.reason
    neovim = await lsp.start("neovim", init={"dynamicChecks": False})  # no disabledSupport: hidden
    uri2 = lsp.open(neovim, path)
    acts = await actions_at(neovim, uri2, pitfalls.split("\n").index("    y = x * 2.0"))
    assert not [a for a in acts if "Check gradients" in a.title]


async def test_hover_shows_the_rule_page(shared, vscode, findings) -> None:
    lsp, client = shared, vscode
    text = findings.text + "x = 1  # noqa: GL301\n"
    path = lsp.write(lsp.unique().name, text)
    uri = lsp.open(client, path)
    report = await lsp.pull(client, uri)
    safe = next(d for d in report.items if d.code == findings.safe.code)
    h = await client.text_document_hover_async(types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri), position=safe.range.start))
    assert h.contents.kind == types.MarkupKind.Markdown
    assert f"# {safe.code} `{findings.safe.name}`" in h.contents.value
    assert h.range == safe.range
    last = len(text.split("\n")) - 2
    h2 = await client.text_document_hover_async(types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=last, character=17)))
    assert "GL301" in h2.contents.value
    nothing = await client.text_document_hover_async(types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=1, character=0)))
    assert nothing is None
