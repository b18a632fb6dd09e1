"""Line ends as Python reads them: "\\r\\n", a lone "\\r" (classic Mac) and "\\n", and nothing
else (form feed, U+2028, U+0085 are characters). Positions, `--fix` and the language server's
edits must agree with CPython's line numbering and leave every other byte alone.

The cases differ only in line ends, encodings and odd characters; each has one GL205 finding
whose safe fix turns `    total += loss` into `    total += loss.item()`.
"""

from __future__ import annotations

import ast
import subprocess
import sys

import pytest
from lsprotocol import types

from gradlint.diagnostics import Edit, Position
from gradlint.engine import check_source
from gradlint.source import SourceText, apply_edits, decode_source, split_lines, split_lines_keepends
from gradlint_server.positions import LineIndex, minimal_edit
from gradlint_server.protocol import _offset

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
LINE = "    total += loss"
FIXED = "    total += loss.item()"


def _join(eol: str, lines=BODY, end: str | None = None) -> str:
    return eol.join(lines) + (eol if end is None else end)


def cases() -> dict[str, tuple[bytes, str]]:
    """name -> (file bytes, encoding of the text)."""
    latin = ["# -*- coding: latin-1 -*-", "# caf\xe9 na\xefve \xa7", *BODY, "# \xff"]
    out: dict[str, tuple[bytes, str]] = {
        "lf": (_join("\n").encode(), "utf-8"),
        "crlf": (_join("\r\n").encode(), "utf-8"),
        "cr": (_join("\r").encode(), "utf-8"),
        "cr_no_final_newline": (_join("\r", end="").encode(), "utf-8"),
        "lf_no_final_newline": (_join("\n", end="").encode(), "utf-8"),
        "mixed": (("\r\n".join(BODY[:3]) + "\r" + "\r".join(BODY[3:6]) + "\n" + "\n".join(BODY[6:]) + "\r\n").encode(), "utf-8"),
        "bom_cr": (b"\xef\xbb\xbf" + _join("\r").encode(), "utf-8"),
        "bom_crlf": (b"\xef\xbb\xbf" + _join("\r\n").encode(), "utf-8"),
        "latin1_cr": (_join("\r", latin).encode("latin-1"), "latin-1"),
        "latin1_crlf": (_join("\r\n", latin).encode("latin-1"), "latin-1"),
        # characters str.splitlines() breaks at but Python does not: strings and comments
        "separators_in_strings_cr": (_join("\r", ["s = 'a\u2028b\u2029c\x85d\x0be\x0cf\x1cg'", *BODY]).encode(), "utf-8"),
        "separators_in_strings_lf": (_join("\n", ["s = 'a\u2028b\u2029c\x85d'", *BODY]).encode(), "utf-8"),
        "separator_in_comment": (_join("\n", [*BODY[:4], "    # sep\u2028here\x85", *BODY[4:]]).encode(), "utf-8"),
        "formfeed_cr": (_join("\r", ["\x0c", *BODY[:4], "\x0c", *BODY[4:]]).encode(), "utf-8"),
        "astral_cr": (_join("\r", ["s = '\U0001F600\U0001F600'", *BODY[:6], "    total += loss  # \U0001F600", BODY[7]]).encode(), "utf-8"),
        "tabs_cr": (_join("\r", [ln.replace("    ", "\t") for ln in BODY]).encode(), "utf-8"),
        "triple_quoted_cr": (_join("\r", ['doc = """one', "two", 'three"""', *BODY]).encode(), "utf-8"),
    }
    return out


def expected(data: bytes, encoding: str) -> bytes:
    """The bytes --fix must write: the one line changed, nothing else."""
    line, fixed = LINE.encode(encoding), FIXED.encode(encoding)
    if line.replace(b"    ", b"\t") in data and line not in data:  # the tab-indented case
        line, fixed = line.replace(b"    ", b"\t"), fixed.replace(b"    ", b"\t")
    assert data.count(line) == 1
    return data.replace(line, fixed)


CASES = cases()
IDS = sorted(CASES)


def _text(name: str) -> str:
    return decode_source(CASES[name][0])


# ---------------------------------------------------------------------- lines and positions
@pytest.mark.parametrize("name", IDS)
def test_lines_are_the_lines_cpython_reads(name):
    """Every statement starts where CPython's parser says: its line and (UTF-8) column."""
    text = _text(name)
    src = SourceText(text)
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.stmt):
            first = ast.get_source_segment(text, node).splitlines()[0]
            assert src.line(node.lineno).encode()[node.col_offset :].decode().startswith(first), (name, node.lineno)
    # offsets and positions are inverse, and line ends are no column of any line
    for offset in range(len(text) + 1):
        pos = src.position(offset)
        if pos.column <= len(src.line(pos.line)):
            assert src.offset(pos) == offset
    assert "".join(split_lines_keepends(text)) == text
    assert [ln.rstrip("\r\n") for ln in split_lines_keepends(text)] == split_lines(text)


@pytest.mark.parametrize("name", IDS)
def test_the_finding_is_where_python_puts_the_line(name):
    text = _text(name)
    (d,) = [d for d in check_source(text, f"{name}.py") if d.code == "GL205"]
    lines = split_lines(text)
    line = next(i for i, ln in enumerate(lines, 1) if ln.lstrip().startswith("total += loss"))
    assert (d.start.line, d.start.column) == (line, lines[line - 1].index("total"))


@pytest.mark.parametrize("eol", ["\n", "\r\n", "\r"])
def test_inserted_lines_take_the_line_end_of_their_line(eol):
    text = eol.join(["a = 1", "b = 2", "c = 3"]) + eol
    edit = Edit(Position(2, 0), Position(2, 0), "x = 0\ny = 0\n")
    assert apply_edits(text, [edit]) == eol.join(["a = 1", "x = 0", "y = 0", "b = 2", "c = 3"]) + eol
    # on the last line, which has no line end, the file's own
    last = eol.join(["a = 1", "b = 2"])
    assert apply_edits(last, [Edit(Position(2, 5), Position(2, 5), "\nz = 3")]) == eol.join(["a = 1", "b = 2", "z = 3"])


# ---------------------------------------------------------------------- gradlint check --fix
def test_fix_is_byte_exact_for_every_line_end_and_encoding(tmp_path):
    (tmp_path / "pyproject.toml").write_text("")
    for name, (data, _) in CASES.items():
        (tmp_path / f"{name}.py").write_bytes(data)
    cmd = [sys.executable, "-m", "gradlint", "check", "--no-cache", "--fix", "--select", "GL205", "."]
    res = subprocess.run(cmd, cwd=tmp_path, capture_output=True, text=True)
    assert res.returncode == 0, res.stdout + res.stderr
    assert f"{len(CASES)} fixed, 0 remaining" in res.stdout
    for name, (data, encoding) in CASES.items():
        after = (tmp_path / f"{name}.py").read_bytes()
        assert after == expected(data, encoding), name
        compile(after, name, "exec")
    # a second run changes nothing
    again = subprocess.run(cmd, cwd=tmp_path, capture_output=True, text=True)
    assert (again.returncode, again.stdout) == (0, "All checks passed!\n")


# ---------------------------------------------------------------------- the language server
def _lsp_offset(text: str, pos: types.Position) -> int:
    """A client's view of a position (UTF-32 columns): LSP ends lines at \\r\\n, \\r and \\n."""
    lines = split_lines_keepends(text)
    return sum(len(ln) for ln in lines[: pos.line]) + pos.character


@pytest.mark.parametrize("name", IDS)
def test_server_positions_and_fix_all_edit(name):
    text = _text(name)
    (d,) = [d for d in check_source(text, f"{name}.py") if d.code == "GL205"]
    index = LineIndex(text, "utf-32")
    start = index.to_lsp(d.start)
    assert text[_lsp_offset(text, start) :].startswith("total += loss")
    assert index.to_engine(start) == d.start
    # the quick fix's edit, and the fix-all edit (minimal_edit of the fixed text), both land
    (e,) = d.fix.edits
    rng = index.range(e.start, e.end)
    a, b = _lsp_offset(text, rng.start), _lsp_offset(text, rng.end)
    fixed = text[:a] + e.content + text[b:]
    assert fixed == apply_edits(text, [e])
    assert fixed.encode(CASES[name][1]) == expected(CASES[name][0].removeprefix(b"\xef\xbb\xbf"), CASES[name][1])
    whole = minimal_edit(text, fixed, index)
    a, b = _lsp_offset(text, whole.range.start), _lsp_offset(text, whole.range.end)
    assert text[:a] + whole.new_text + text[b:] == fixed


@pytest.mark.parametrize("text", ["a\rb\r\nc\nd", "a\r", "\r\r\n\n", "x = 1\ry\u2028z\r\n", ""])
def test_incremental_changes_see_lsp_lines(text):
    for line in range(len(split_lines(text)) + 1):
        for ch in range(4):
            pos = types.Position(line=line, character=ch)
            assert _offset(text, pos, "utf-32") == min(_lsp_offset(text, pos) if line < len(split_lines(text)) else len(text), _line_end(text, line))


def _line_end(text: str, line: int) -> int:
    kept = split_lines_keepends(text)
    if line >= len(kept):
        return len(text)
    return sum(len(ln) for ln in kept[:line]) + len(split_lines(text)[line])


def test_diff_shows_python_lines(tmp_path):
    (tmp_path / "pyproject.toml").write_text("")
    for name in ("cr", "separators_in_strings_lf"):
        (tmp_path / f"{name}.py").write_bytes(CASES[name][0])
    cmd = [sys.executable, "-m", "gradlint", "check", "--no-cache", "--diff", "--select", "GL205"]
    cr = subprocess.run(cmd + ["cr.py"], cwd=tmp_path, capture_output=True).stdout.decode()
    assert "-    total += loss\r\n+    total += loss.item()\r\n print(total)\r\n" in cr
    # U+2028 and U+0085 inside a string do not split the line in the diff either
    sep = subprocess.run(cmd + ["separators_in_strings_lf.py"], cwd=tmp_path, capture_output=True).stdout.decode()
    # (line 8 of 9 changes: 3 lines of context before, 1 after; str.splitlines would see 12 lines)
    assert "@@ -5,5 +5,5 @@\n" in sep
