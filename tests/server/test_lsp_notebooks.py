"""Notebooks: cells are linted together (names from earlier cells are known), diagnostics land on
the right cell and line, a broken cell hides only itself, structure changes re-publish."""

from __future__ import annotations

from lsprotocol import types

from gradlint.engine import check_source

CELLS = [
    (types.NotebookCellKind.Code, "import torch\n%matplotlib inline\n"),
    (types.NotebookCellKind.Markup, "# Training\nSome *markdown*.\n"),
    (types.NotebookCellKind.Code, 'model = torch.nn.Linear(100, 1)\nopt = torch.optim.SGD(model.parameters(), lr=0.01)\ntotal_loss = 0\nstyle = torch.randn(1, 3, 64, 64, requires_grad=True).to("cuda")\nstyle_opt = torch.optim.Adam([style], lr=0.05)\n(style ** 2).mean().backward()\n'),
    (types.NotebookCellKind.Code, "def half_typed(:\n"),
    (types.NotebookCellKind.Code, "for i in range(100):\n    opt.zero_grad()\n    loss = model(torch.randn(64, 100)).pow(2).mean()\n    loss.backward()\n    opt.step()\n    total_loss += loss\n"),
]


def open_notebook(client, path) -> tuple[str, list[str]]:
    nb_uri = path.as_uri()
    cell_uris = [f"vscode-notebook-cell:{path}#W{i}" for i in range(len(CELLS))]
    client.notebook_document_did_open(
        types.DidOpenNotebookDocumentParams(
            notebook_document=types.NotebookDocument(
                uri=nb_uri, notebook_type="jupyter-notebook", version=1,
                cells=[types.NotebookCell(kind=kind, document=u) for (kind, _), u in zip(CELLS, cell_uris)],
            ),
            cell_text_documents=[
                types.TextDocumentItem(uri=u, language_id="markdown" if kind == types.NotebookCellKind.Markup else "python", version=1, text=text)
                for (kind, text), u in zip(CELLS, cell_uris)
            ],
        )
    )
    return nb_uri, cell_uris


def expected() -> dict[int, list[tuple[str, int]]]:
    """Per code cell: the findings of the engine on the cells as one module (without the
    broken cell), computed here by plain line arithmetic."""
    code = [(i, text) for i, (kind, text) in enumerate(CELLS) if kind == types.NotebookCellKind.Code and i != 3]
    joined, starts = "", {}
    for i, text in code:
        starts[i] = joined.count("\n")
        joined += "\n".join("#" + ln[1:] if ln.startswith("%") else ln for ln in text.rstrip("\n").split("\n")) + "\n"
    out: dict[int, list[tuple[str, int]]] = {i: [] for i, _ in code}
    for d in check_source(joined, "nb.py"):
        cell = max(i for i, s in starts.items() if s <= d.start.line - 1)
        out[cell].append((d.code, d.start.line - 1 - starts[cell]))
    return out


def test_the_findings_need_the_earlier_cells() -> None:
    # checked alone, neither cell has a finding: the notebook's cells must be checked together
    assert check_source(CELLS[2][1], "c.py") == [] and check_source(CELLS[4][1], "c.py") == []
    assert expected()[2] and expected()[4]


async def test_pull_per_cell_with_names_from_earlier_cells(shared, vscode) -> None:
    lsp, client = shared, vscode
    sync = client.init_result.capabilities.notebook_document_sync
    assert sync is not None and sync.notebook_selector
    nb_uri, cells = open_notebook(client, lsp.unique(".ipynb"))
    found = {}
    for uri in cells:
        report = await lsp.pull(client, uri)
        found[uri] = [(d.code, d.range.start.line) for d in report.items]
    want = expected()
    assert found[cells[0]] == want[0] == []  # the %magic line is not a syntax error
    assert found[cells[1]] == []  # markdown
    assert found[cells[2]] == want[2]
    assert found[cells[3]] == [("GL001", 0)]  # the broken cell, and only it
    assert found[cells[4]] == want[4]

    # a quick fix in a cell edits that cell
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=cells[4]),
        range=types.Range(start=types.Position(line=5, character=0), end=types.Position(line=5, character=10)),
        context=types.CodeActionContext(diagnostics=[]),
    ))
    fix = next(a for a in actions if a.kind == "quickfix" and not a.title.startswith("Disable"))
    (change,) = fix.edit.document_changes
    assert change.text_document.uri == cells[4]
    assert change.edits[0].range.start.line == want[4][0][1]
    assert not [a for a in actions if "Check gradients" in a.title]  # a cell is not importable


async def test_push_per_cell_and_structure_changes(lsp) -> None:
    caps = lsp.capabilities("neovim")
    caps.notebook_document = types.NotebookDocumentClientCapabilities(synchronization=types.NotebookDocumentSyncClientCapabilities())
    client = await lsp.start("neovim", capabilities=caps)
    nb_uri, cells = open_notebook(client, lsp.root / "train.ipynb")
    want = expected()
    pub = await lsp.publish(client, cells[4])
    assert [(d.code, d.range.start.line) for d in pub.diagnostics] == want[4]
    assert [(d.code, d.range.start.line) for d in (await lsp.publish(client, cells[2])).diagnostics] == want[2]

    # delete the broken cell and fix the loop: the deleted cell is cleared, the loop re-published
    start = len(client.published)
    client.notebook_document_did_change(types.DidChangeNotebookDocumentParams(
        notebook_document=types.VersionedNotebookDocumentIdentifier(uri=nb_uri, version=2),
        change=types.NotebookDocumentChangeEvent(cells=types.NotebookDocumentCellChanges(
            structure=types.NotebookDocumentCellChangeStructure(
                array=types.NotebookCellArrayChange(start=3, delete_count=1, cells=[]),
                did_close=[types.TextDocumentIdentifier(uri=cells[3])],
            ),
            text_content=[types.NotebookDocumentCellContentChanges(
                document=types.VersionedTextDocumentIdentifier(uri=cells[4], version=2),
                changes=[types.TextDocumentContentChangeWholeDocument(text=CELLS[4][1].replace("+= loss", "+= loss.item()"))],
            )],
        )),
    ))
    assert list((await lsp.publish(client, cells[3], since=start)).diagnostics) == []
    assert list((await lsp.publish(client, cells[4], since=start)).diagnostics) == []
    assert [(d.code, d.range.start.line) for d in (await lsp.publish(client, cells[2], since=start)).diagnostics] == want[2]

    start = len(client.published)
    client.notebook_document_did_close(types.DidCloseNotebookDocumentParams(
        notebook_document=types.NotebookDocumentIdentifier(uri=nb_uri),
        cell_text_documents=[types.TextDocumentIdentifier(uri=u) for i, u in enumerate(cells) if i != 3],
    ))
    assert list((await lsp.publish(client, cells[2], since=start)).diagnostics) == []


async def test_messages_name_other_cells_by_their_number(shared, vscode) -> None:
    """"on line N" in a message is the cell's line, and "of cell K" when it is another cell
    (K counts every cell, the markdown one too, as the notebook shows them)."""
    lsp, client = shared, vscode
    path = lsp.unique(".ipynb")
    cells = [
        (types.NotebookCellKind.Markup, "# Notes"),
        (types.NotebookCellKind.Code, "import torch\nw = torch.randn(3, requires_grad=True)\ny = (w * 2).sum()\n"),
        (types.NotebookCellKind.Code, "y.backward()\n"),
        (types.NotebookCellKind.Code, "print(2)\ny.backward()\n"),
    ]
    uris = [f"vscode-notebook-cell:{path}#X{i}" for i in range(len(cells))]
    client.notebook_document_did_open(types.DidOpenNotebookDocumentParams(
        notebook_document=types.NotebookDocument(
            uri=path.as_uri(), notebook_type="jupyter-notebook", version=1,
            cells=[types.NotebookCell(kind=kind, document=u) for (kind, _), u in zip(cells, uris)],
        ),
        cell_text_documents=[
            types.TextDocumentItem(uri=u, language_id="markdown" if kind == types.NotebookCellKind.Markup else "python", version=1, text=text)
            for (kind, text), u in zip(cells, uris)
        ],
    ))
    (d,) = (await lsp.pull(client, uris[3])).items
    assert (d.code, d.range.start.line) == ("GL201", 1)
    assert "the backward pass on line 1 of cell 3 already freed" in d.message
