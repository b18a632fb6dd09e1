"""Notebooks in gradlint itself (gradlint.notebook): IPython masking, joining and splitting
cells, reading .ipynb files with positions, writing changed cells back byte-exactly, and
checking/fixing a notebook (the CLI's path; the server's is tests/server/test_lsp_notebooks.py)."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

from gradlint import engine
from gradlint.config import Config
from gradlint.diagnostics import Diagnostic, Edit, Fix, Position, Severity
from gradlint.notebook import cells, ipynb
from gradlint.notebook.check import check_notebook
from gradlint.source import split_lines

ROOT = Path(__file__).resolve().parents[1]

MODEL = "import torch\nmodel = torch.nn.Linear(3, 1)"
LOOP = "total = 0\nfor i in range(3):\n    loss = model(torch.randn(2, 3)).sum()\n    loss.backward()\n    total += loss\nprint(total)"


def notebook(*sources, kinds=None, indent=1, ensure_ascii=False, language="python", as_string=False, trailing="\n") -> bytes:
    """An nbformat-4 file as Jupyter writes it (json.dumps, sorted keys, indent 1)."""
    out = []
    for i, src in enumerate(sources):
        kind = (kinds or {}).get(i, "code")
        cell = {"cell_type": kind, "id": f"c{i}", "metadata": {}, "source": src if as_string else src.splitlines(True)}
        if kind == "code":
            cell.update(execution_count=None, outputs=[])
        out.append(cell)
    nb = {"cells": out, "metadata": {"language_info": {"name": language}}, "nbformat": 4, "nbformat_minor": 5}
    return (json.dumps(nb, indent=indent, sort_keys=True, ensure_ascii=ensure_ascii) + trailing).encode()


def run(data: bytes, mode=None, unsafe=False, config=None):
    config = config or Config()
    return check_notebook(
        data, "nb.ipynb", config,
        check=lambda text: engine.check_source(text, "nb.ipynb", config),
        io_error=lambda message: [engine.io_error("nb.ipynb", message, config)],
        mode=mode, unsafe=unsafe,
    )


def found(diags: list[Diagnostic]) -> list[tuple[str, int | None, int, int]]:
    return [(d.code, d.cell, d.start.line, d.start.column) for d in diags]


# ---------------------------------------------------------------------- IPython masking
def test_ipython_syntax_is_masked_in_place():
    src = (
        "%matplotlib inline\n"
        "!pip install torch\n"
        "files = !ls -la\n"
        "x, y = %time f(1)\n"
        "torch.nn.Linear?\n"
        "??torch.randn\n"
        "for i in range(3):\n"
        "    %time step(i)\n"
        "    !echo {i}\n"
        "s = '''\n"
        "%not a magic, a line of a string\n"
        "'''\n"
        "t = f(a,\n"
        "      !b)\n"
        "u = 1  # is this help?\n"
        "v = 'what?'\n"
        "w = 5 % 2\n"
        'print("Model = %s" % str(m))\n'
        "a != b\n"
    )
    masked = cells.mask_ipython(src)
    lines = src.split("\n")[:-1]
    assert [len(m) for m in masked] == [len(ln) for ln in lines]  # nothing moves
    assert masked[:9] == [
        "0#atplotlib inline", "0#ip install torch", "files = 0#s -la", "x, y = 0#ime f(1)",
        "0#rch.nn.Linear?", "0#torch.randn", "for i in range(3):", "    0#ime step(i)", "    0#cho {i}",
    ]
    assert masked[9:] == lines[9:]  # in a string, in brackets, in a comment, in a string, modulo
    ast.parse("\n".join(masked[:12]))  # the loop body is still a statement


def test_python_is_left_alone():
    """Every line of valid Python (the repository's own code and corpus) masks to itself: the
    masking never mistakes `%` formatting, `!=`, `?` in strings or comments for IPython."""
    for path in sorted([*ROOT.joinpath("gradlint").rglob("*.py"), *ROOT.joinpath("tests").rglob("*.py")]):
        src = path.read_text(encoding="utf-8")
        lines = split_lines(src)
        if len(lines) > 1 and lines[-1] == "":
            lines.pop()
        assert cells.mask_ipython(src) == lines, path


@pytest.mark.parametrize(("magic", "analysed"), [("%%time", True), ("%%capture out", True), ("%%bash", False), ("%%writefile x.py", False)])
def test_cell_magics(magic, analysed):
    src = f"{magic}\nx = torch.randn(3).numpy()\n"
    masked = cells.mask_ipython(src)
    assert masked[0].startswith("0#") and len(masked[0]) == len(magic)
    assert (masked[1] == "x = torch.randn(3).numpy()") is analysed
    assert analysed or masked[1].startswith("#")


def test_cell_magic_after_form_comments():
    """Colab puts `# @title` form lines above a cell magic: the magic is the first line of code
    (big_vision's PaliGemma notebook)."""
    src = "# @title Run training loop.\n#\n%%time\n\nx = torch.randn(3).numpy()\n"
    masked = cells.mask_ipython(src)
    assert masked[2] == "0#time" and masked[4] == "x = torch.randn(3).numpy()"
    ast.parse("\n".join(masked))
    assert cells.mask_ipython("# notes\n%%bash\nls -la\n")[2].startswith("#")


def test_shell_escape_continued_with_backslash():
    """`!git clone ... \\` goes on in the next (indented) line: that line is the command's
    text too, not Python."""
    src = (
        "if not os.path.exists('repo'):\n"
        "  !git clone --quiet --depth=1 \\\n"
        "     https://github.com/x/y \\\n"
        "     repo\n"
        "  files = !ls \\\n"
        "     -la\n"
        "x = 1 + \\\n"
        "    2\n"
    )
    masked = cells.mask_ipython(src)
    lines = src.split("\n")[:-1]
    assert [len(m) for m in masked] == [len(ln) for ln in lines]
    assert masked[2].startswith("#") and masked[3].startswith("#") and masked[5].startswith("#")
    assert masked[6:] == lines[6:]  # a Python continuation is left alone
    ast.parse("\n".join(masked))


def test_join_keeps_lines_and_blanks_masked_cells():
    joined = cells.join([("c1", "%matplotlib inline\nimport torch\n"), ("c2", "!pip list"), ("c3", "%%bash\necho hi\n")])
    assert joined.text == "0#atplotlib inline\nimport torch\n0#ip list\n0#bash\n#cho hi\n"
    assert [(c.start, c.count) for c in joined.cells] == [(1, 2), (3, 1), (4, 2)]
    masked = cells.join([("c1", "a\nb\n"), ("c2", "c")], frozenset({0}))
    assert masked.text == "\n\nc\n"


def _diag(code: str, line: int, col: int = 0, fix: Fix | None = None) -> Diagnostic:
    return Diagnostic(code, "n", "m", Severity.ERROR, Position(line, col), Position(line, col + 1), fix=fix)


def test_split_maps_lines_and_fixes_to_cells():
    joined = cells.join([("c1", "a\nb"), ("c2", "c\nd\n")])
    fix = Fix("f", (Edit(Position(4, 0), Position(4, 1), "D"),))
    crossing = Fix("g", (Edit(Position(2, 0), Position(3, 1), ""),))
    out = cells.split(joined, [_diag("GL1", 2), _diag("GL2", 4, fix=fix), _diag("GL3", 2, fix=crossing)])
    assert [(d.code, d.start.line) for d in out["c1"]] == [("GL1", 2), ("GL3", 2)]
    assert out["c2"][0].start.line == 2 and out["c2"][0].fix.edits[0].start == Position(2, 0)
    assert out["c1"][1].fix is None  # an edit that leaves its cell is dropped
    assert cells.broken_cell(joined, [_diag("GL001", 3)]) == 1


# ---------------------------------------------------------------------- reading and writing
@pytest.mark.parametrize("style", [
    {}, {"indent": 2}, {"indent": None}, {"ensure_ascii": True}, {"as_string": True}, {"trailing": ""},
])
def test_file_positions_point_at_the_line_in_the_json(style):
    src = 'x = "caf\u00e9 \\"q\\" \U0001F600\\t"\n' + LOOP
    data = notebook("# Title", MODEL, src, kinds={0: "markdown"}, **style)
    nb = ipynb.read(data)
    assert [c.is_python for c in nb.cells] == [False, True, True]
    text = data.decode()
    for line, code in enumerate(src.split("\n"), 1):
        col = len(code) - len(code.lstrip())
        at = nb.file_position(2, Position(line, col))
        json_line = text.split("\n")[at.line - 1]
        # the JSON string that spans that column decodes, from there, to the rest of the line
        opening = min(p for p, ch in enumerate(json_line[: at.column]) if ch == '"' and json.decoder.scanstring(json_line, p + 1)[1] > at.column)
        value = json.decoder.scanstring(json_line, opening + 1)[0]
        prefix = json.decoder.scanstring(json_line[: at.column] + '"', opening + 1)[0]
        assert value[len(prefix) :].startswith(code.lstrip()), (line, json_line, at)


@pytest.mark.parametrize("style", [
    {}, {"indent": 2}, {"indent": None}, {"ensure_ascii": True}, {"as_string": True}, {"trailing": ""},
])
def test_changed_cells_are_written_back_and_nothing_else(style):
    data = notebook("# caf\u00e9", MODEL, LOOP + "  # \u00e9\u2028", "print(1)", kinds={0: "markdown"}, **style)
    nb = ipynb.read(data)
    assert nb.with_sources({}) == data.decode()
    new_loop = nb.cells[2].source.replace("total += loss", "total += loss.item()")
    text = nb.with_sources({2: new_loop})
    # exactly what Jupyter would have written, and the other cells untouched
    expected = notebook("# caf\u00e9", MODEL, LOOP.replace("total += loss", "total += loss.item()") + "  # \u00e9\u2028", "print(1)", kinds={0: "markdown"}, **style)
    assert text == expected.decode()
    # a cell that grows from nothing takes the surrounding layout
    empty = notebook("", "x = 1", **style)
    grown = ipynb.read(empty).with_sources({0: "import torch\nmodel = 1"})
    assert grown == notebook("import torch\nmodel = 1", "x = 1", **style).decode()


def test_hand_written_escapes_survive_a_fix():
    # an unchanged line keeps its token exactly, even where json.dumps would escape differently
    raw = '{"cells": [{"cell_type": "code", "metadata": {}, "outputs": [], "source": ["s = \\"\\u00e9\\\\/\\"\\n", "x = 1"]}], "nbformat": 4, "nbformat_minor": 5}'
    nb = ipynb.read(raw.encode())
    out = nb.with_sources({0: 's = "\u00e9\\/"\nx = 2'})
    assert out == raw.replace('"x = 1"', '"x = 2"')


@pytest.mark.parametrize(("data", "message"), [
    (b'{"cells": [', "invalid JSON: Expecting value (line 1, column 12)"),
    (b"[]", "no `cells` list"),
    (b'{"cells": 5}', "no `cells` list"),
    (b'{"cells": [], "nbformat": 3}', "nbformat 3 is not supported"),
    (b'{"cells": [{"cell_type": "code"}]}', "cell 1 has no `source`"),
    (b'{"cells": [{"source": "x"}]}', "cell 1 has no `cell_type`"),
    (b'{"cells": [{"cell_type": "code", "source": [1]}]}', "cell 1 has no `source`"),
    (b"\xff\xfe{}", "not valid UTF-8"),
])
def test_a_broken_notebook_is_gl003_with_the_reason(data, message):
    (d,) = run(data).diagnostics
    assert d.code == "GL003" and d.message.startswith("cannot read notebook: ") and message in d.message


# ---------------------------------------------------------------------- checking
def test_cells_are_one_module_in_order():
    # the loop cell alone has no finding: `model` comes from the cell above it
    assert [d for d in engine.check_source(LOOP, "x.py") if d.code == "GL205"] == []
    out = run(notebook("# Training", MODEL, "%matplotlib inline", LOOP, kinds={0: "markdown"}))
    assert found(out.diagnostics) == [("GL205", 4, 5, 4)]


def test_skipped_cells_and_notebooks():
    # markdown and raw cells, a %%bash cell, a cell in another language: not Python
    data = notebook(MODEL, LOOP, LOOP, "%%bash\n" + LOOP, kinds={1: "markdown", 2: "raw"})
    assert run(data).diagnostics == []
    sql = json.loads(notebook(MODEL, LOOP))
    sql["cells"][1]["metadata"]["vscode"] = {"languageId": "sql"}
    assert run(json.dumps(sql).encode()).diagnostics == []
    assert run(notebook(MODEL, LOOP, language="R")).diagnostics == []


def test_noqa_is_per_cell_line():
    data = notebook(MODEL, LOOP.replace("total += loss", "total += loss  # noqa: GL205"), LOOP)
    assert found(run(data).diagnostics) == [("GL205", 3, 5, 4)]
    # a file-level `# gradlint: noqa` in any cell silences the notebook
    assert run(notebook(MODEL, LOOP, "# gradlint: noqa: GL205")).diagnostics == []


def test_a_broken_cell_hides_only_itself():
    data = notebook(MODEL, "def half_typed(:\n", LOOP)
    assert [(d.code, d.cell, d.start.line) for d in run(data).diagnostics] == [("GL001", 2, 1), ("GL205", 3, 5)]


def test_fix_edits_the_cell_and_diff_shows_it_per_cell():
    data = notebook("# Training", MODEL, LOOP, "print(total)", kinds={0: "markdown"})
    fixed = run(data, mode="fix")
    assert (fixed.fixed, fixed.diagnostics) == (1, [])
    assert fixed.data == notebook("# Training", MODEL, LOOP.replace("total += loss", "total += loss.item()"), "print(total)", kinds={0: "markdown"})
    assert found(fixed.original) == [("GL205", 3, 5, 4)]
    assert run(fixed.data, mode="fix").data is None  # nothing left to do
    diff = run(data, mode="diff")
    assert diff.diff.startswith("--- nb.ipynb:cell 3\n+++ nb.ipynb:cell 3\n@@ ")
    assert "-    total += loss\n+    total += loss.item()\n" in diff.diff
    assert found(diff.diagnostics) == [("GL205", 3, 5, 4)]


def test_messages_name_lines_by_cell():
    """A message's "on line N" means the joined text's line N: the reader needs the cell's."""
    data = notebook("import torch\nw = torch.randn(3, requires_grad=True)\ny = (w * 2).sum()", "y.backward()", "print(2)\ny.backward()\ny.backward()")
    first, second = run(data).diagnostics
    assert (first.code, first.cell, first.start.line) == ("GL201", 3, 2)
    assert "the backward pass on line 1 of cell 2 already freed" in first.message
    assert (second.cell, second.start.line) == (3, 3) and "the backward pass on line 1 of cell 2" in second.message
    same = run(notebook("import torch\nw = torch.randn(3, requires_grad=True)\ny = (w * 2).sum()\ny.backward()\ny.backward()"))
    assert "the backward pass on line 4 already freed" in same.diagnostics[0].message


def _as_notebook(src: str) -> tuple[bytes, list[int]]:
    """A .py file cut into cells at its top-level statements, and each cell's first line."""
    lines = src.splitlines(True)
    starts = sorted({min([n.lineno, *(d.lineno for d in getattr(n, "decorator_list", []))]) for n in ast.parse(src).body})
    starts = [1, *[s for s in starts if s > 1]]
    bounds = [*starts, len(lines) + 1]
    return notebook(*["".join(lines[a - 1 : b - 1]) for a, b in zip(bounds, bounds[1:])]), starts


def _corpus():
    return sorted((ROOT / "tests" / "corpus").glob("*/*.py"))


@pytest.mark.parametrize("path", _corpus(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_a_file_cut_into_cells_reports_what_the_file_reports(path):
    """Cells are one module: the same findings, on the same lines once mapped back (and the
    messages' line references name the cell)."""
    src = path.read_text(encoding="utf-8")
    data, starts = _as_notebook(src)
    plain = [(d.code, d.start.line, d.start.column, re.sub(r"line \d+", "line #", d.message)) for d in engine.check_source(src, "nb.ipynb")]
    cut = [
        (d.code, starts[d.cell - 1] + d.start.line - 1, d.start.column, re.sub(r"line \d+( of cell \d+)?", "line #", d.message))
        for d in run(data).diagnostics
    ]
    assert sorted(cut) == sorted(plain)
