"""Code cells as one module: IPython syntax masked, cells joined, findings mapped back.

IPython accepts lines that are not Python: `%magic`, `!shell`, `x = !cmd`, `obj?`, `??obj`,
and cell magics (`%%time` on the first line of code). Each is masked *in place*: the magic part of the
line becomes `0#...` (an expression statement and a comment, two characters for the first two,
so that it stays a statement inside an indented block and nothing after it moves), and a cell
whose magic does not run Python (`%%bash`, `%%html`, ...) becomes comments. Lines are never
added or removed, so line N of a cell is line `start + N - 1` of the joined text, and every
column is the cell's own.

The language server joins the cells the editor sends; `gradlint check` the cells of the file.
Both call `join`, check the text, and `split` the findings per cell.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from collections.abc import Callable
from typing import Hashable

from ..diagnostics import Diagnostic, Edit, Fix, Position
from ..source import split_lines

# Cell magics whose body is Python run in the kernel's namespace: the body is analysed.
PYTHON_CELL_MAGICS = frozenset({"time", "timeit", "capture", "prun", "debug"})
# `x = !ls`, `files = %sx ls`: an assignment whose right-hand side is an IPython escape.
_ASSIGN_ESCAPE = re.compile(r"^(\s*[A-Za-z_][\w.\[\]'\", *]*?\s*=\s*)([!%])")
_ESCAPES = ("%", "!", "?", "/", ",", ";")  # line starts IPython rewrites (/ , ; are autocall)
# what changes the scanner's state: a comment, a bracket, a backslash, a quote (a string's
# prefix does not matter: in a raw string too, an escaped quote does not end it)
_SIGNIFICANT = re.compile(r"""[#()\[\]{}\\'"]""")


def _masked(line: str, at: int) -> str:
    """`line` with everything from column `at` turned into `0#...` (same length)."""
    rest = len(line) - at
    return line[:at] + ("0" if rest == 1 else "0#" + line[at + 2 :])


def _commented(line: str) -> str:
    return "#" + line[1:] if line else line


class _Scanner:
    """Where a line starts: at a statement (IPython syntax possible), or inside a string,
    brackets or a backslash continuation (where `%` or `?` are just characters)."""

    def __init__(self) -> None:
        self.quote: str | None = None  # the open string's quote, if one spans lines
        self.depth = 0
        self.continued = False

    @property
    def at_statement(self) -> bool:
        return self.quote is None and self.depth == 0 and not self.continued

    def feed(self, line: str) -> int:
        """Advance over `line`; return the length of its code (without a trailing comment)."""
        i, n = 0, len(line)
        self.continued = False
        while i < n:
            if self.quote is not None:
                j = line.find(self.quote, i)
                k = line.find("\\", i)
                if k != -1 and (j == -1 or k < j):
                    if k == n - 1:
                        self.continued = len(self.quote) == 1  # a continued one-line string
                        return n
                    i = k + 2
                    continue
                if j == -1:
                    if len(self.quote) == 1:
                        self.quote = None  # an unterminated one-line string ends with the line
                    return n
                i = j + len(self.quote)
                self.quote = None
                continue
            m = _SIGNIFICANT.search(line, i)  # jump over names, numbers, operators, spaces
            if m is None:
                return n
            c = m.group(0)
            if c == "#":
                return m.start()
            if c in "([{":
                self.depth += 1
            elif c in ")]}":
                self.depth = max(0, self.depth - 1)
            elif c == "\\":
                self.continued = m.end() == n
            else:
                triple = line[m.start() : m.start() + 3]
                self.quote = triple if triple == c * 3 else c
                i = m.start() + len(self.quote)
                continue
            i = m.end()
        return n


# a line that may hold IPython syntax (most cells have none: they are not scanned at all)
_MAYBE_IPYTHON = re.compile(r"^[ \t]*[%!?/,;]|\?[ \t]*(?:#.*)?$|=[ \t]*[!%]", re.M)


def mask_ipython(source: str) -> list[str]:
    """The lines of one code cell with IPython syntax masked (same count, same lengths)."""
    lines = split_lines(source)
    if len(lines) > 1 and lines[-1] == "":
        lines.pop()  # the cell's final line end closes its last line: no line follows it
    if not _MAYBE_IPYTHON.search(source):
        return lines
    # the cell magic's line: the first with code (Colab's `# @title` form lines come before it)
    first = next((i for i, ln in enumerate(lines) if ln.strip() and not ln.lstrip().startswith("#")), None)
    if first is not None and lines[first].lstrip().startswith("%%"):
        head = lines[first]
        at = len(head) - len(head.lstrip())
        magic = head[at + 2 :].split(None, 1)[0] if head[at + 2 :].strip() else ""
        lines[first] = _masked(head, at)
        if magic not in PYTHON_CELL_MAGICS:
            return [ln if i == first else _commented(ln) for i, ln in enumerate(lines)]
    scanner = _Scanner()
    out = []
    shell_continues = False  # the previous line was an escape ending in `\`: this one is its text
    for ln in lines:
        if shell_continues:
            shell_continues = ln.endswith("\\")
            out.append(_commented(ln))
            continue
        if scanner.at_statement:
            stripped = ln.lstrip()
            at = len(ln) - len(stripped)
            if stripped.startswith(_ESCAPES) and not stripped.startswith("%%"):
                out.append(_masked(ln, at))
                shell_continues = ln.endswith("\\")
                continue
            m = _ASSIGN_ESCAPE.match(ln) if "=" in ln and ("!" in ln or "%" in ln) else None
            if m is not None:
                out.append(_masked(ln, m.end(1)))
                shell_continues = ln.endswith("\\")
                continue
            state = (scanner.quote, scanner.depth)
            code = ln[: scanner.feed(ln)].rstrip()
            if code.endswith("?") and scanner.quote is None:  # `obj?`, `obj.method??`
                scanner.quote, scanner.depth = state
                scanner.continued = False
                out.append(_masked(ln, at))
                continue
            out.append(ln)
            continue
        scanner.feed(ln)
        out.append(ln)
    return out


# ---------------------------------------------------------------------- joining and splitting
@dataclass(frozen=True)
class CellSpan:
    key: Hashable  # the caller's name for the cell: an editor URI, a cell index
    start: int  # 1-based line of the cell's first line in the joined text
    count: int  # number of lines

    def contains(self, line: int) -> bool:
        return self.start <= line < self.start + self.count


@dataclass(frozen=True)
class Joined:
    text: str
    cells: tuple[CellSpan, ...]

    def cell_at(self, line: int) -> int | None:
        """Index of the cell holding joined line `line` (1-based)."""
        for i, cell in enumerate(self.cells):
            if cell.contains(line):
                return i
        return None


def join(cells: list[tuple[Hashable, str]], masked: frozenset[int] = frozenset()) -> Joined:
    """`cells`: (key, source) of the code cells in notebook order. A cell in `masked` (by
    position in `cells`) is blanked: one half-typed cell must not hide the others' findings."""
    out: list[str] = []
    spans: list[CellSpan] = []
    for i, (key, text) in enumerate(cells):
        lines = mask_ipython(text)
        if i in masked:
            lines = [""] * len(lines)
        spans.append(CellSpan(key, len(out) + 1, len(lines)))
        out.extend(lines)
    return Joined("\n".join(out) + "\n", tuple(spans))


def _shift(pos: Position, cell: CellSpan) -> Position:
    return Position(pos.line - cell.start + 1, pos.column)


def _local_fix(fix: Fix | None, cell: CellSpan) -> Fix | None:
    if fix is None:
        return None
    edits = []
    for e in fix.edits:
        # an edit may end at column 0 of the line after the cell (a whole-line edit)
        ends_inside = cell.contains(e.end.line) or (e.end.line == cell.start + cell.count and e.end.column == 0)
        if not cell.contains(e.start.line) or not ends_inside:
            return None  # an edit that leaves its cell is not offered
        edits.append(Edit(_shift(e.start, cell), _shift(e.end, cell), e.content))
    return replace(fix, edits=tuple(edits))


_LINE_REF = re.compile(r"\bline (\d+)\b")


def _cell_lines(message: str, joined: Joined, own: int, cell_name: Callable[[Hashable], str]) -> str:
    """Messages name other lines ("differentiated on line 26"): a line of the joined text
    means nothing to the reader, the cell and its line do."""

    def local(m: re.Match) -> str:
        idx = joined.cell_at(int(m.group(1)))
        if idx is None:
            return m.group(0)
        cell = joined.cells[idx]
        line = int(m.group(1)) - cell.start + 1
        return f"line {line}" if idx == own else f"line {line} of cell {cell_name(cell.key)}"

    return _LINE_REF.sub(local, message) if "line " in message else message


_NOTEBOOK_LINE = re.compile(r"(\S+\.ipynb):(\d+)\b")


def elsewhere(joined: Joined, diagnostics: list[Diagnostic], cell_name: Callable[[Hashable], str] | None = None) -> list[Diagnostic]:
    """Findings a check of the cells made in another file (a project module the notebook
    imports: `losses.py:6 ... differentiated at train.ipynb:8`): kept as they are, except that
    the notebook's line in their message becomes its cell and line (`train.ipynb:cell 2:5`)."""
    if cell_name is None:
        order = {c.key: i + 1 for i, c in enumerate(joined.cells)}
        cell_name = lambda key: str(order[key])  # noqa: E731

    def local(m: re.Match) -> str:
        idx = joined.cell_at(int(m.group(2)))
        if idx is None:
            return m.group(0)
        cell = joined.cells[idx]
        return f"{m.group(1)}:cell {cell_name(cell.key)}:{int(m.group(2)) - cell.start + 1}"

    return [replace(d, message=_NOTEBOOK_LINE.sub(local, d.message)) for d in diagnostics if is_elsewhere(d)]


def is_elsewhere(d: Diagnostic) -> bool:
    """A notebook's check reports in the notebook, or in a project module it imports (a .py
    file: the project's modules are never notebooks)."""
    return d.path.endswith((".py", ".pyi"))


def split(
    joined: Joined, diagnostics: list[Diagnostic], cell_name: Callable[[Hashable], str] | None = None
) -> dict[Hashable, list[Diagnostic]]:
    """Per cell key, the diagnostics with cell-local positions (every cell gets a list, so
    that a cell whose findings went away is cleared). `cell_name(key)` is how a message names
    another cell ("line 3 of cell 4"); by default, its position among the joined cells."""
    if cell_name is None:
        order = {c.key: i + 1 for i, c in enumerate(joined.cells)}
        cell_name = lambda key: str(order[key])  # noqa: E731
    out: dict[Hashable, list[Diagnostic]] = {c.key: [] for c in joined.cells}
    for d in diagnostics:
        if is_elsewhere(d):
            continue  # another file's (`elsewhere`)
        idx = joined.cell_at(d.start.line)
        if idx is None:
            if not joined.cells:
                continue
            idx = len(joined.cells) - 1  # e.g. "unexpected EOF" just past the last line
            last = Position(joined.cells[idx].start + joined.cells[idx].count - 1, 0)
            d = replace(d, start=last, end=last)
        cell = joined.cells[idx]
        end = d.end if cell.contains(d.end.line) else Position(cell.start + cell.count - 1, 10**9)
        related = tuple((_shift(p, cell), m) for p, m in d.related if cell.contains(p.line))
        message = _cell_lines(d.message, joined, idx, cell_name)
        out[cell.key].append(
            replace(d, start=_shift(d.start, cell), end=_shift(end, cell), fix=_local_fix(d.fix, cell), related=related, message=message)
        )
    return out


class CellsCheck:
    """Checking a notebook's cells, as an exchange with whoever runs the engine (in this
    process for `gradlint check`, in the lint process for the language server):

        run = CellsCheck(cells)
        while not run.feed(check(run.joined.text)):
            pass
        run.result  # {cell key: [cell-local diagnostics]}

    A cell that does not parse keeps its GL001 and is blanked, and the others are checked
    again (up to `max_masked` cells), so one half-typed cell does not hide every finding."""

    def __init__(
        self, cells: list[tuple[Hashable, str]], max_masked: int = 5, cell_name: Callable[[Hashable], str] | None = None
    ) -> None:
        self.cells = cells
        self.max_masked = max_masked
        self.cell_name = cell_name
        self.masked: frozenset[int] = frozenset()
        self.syntax: list[Diagnostic] = []
        self.joined = join(cells)
        self.result: dict[Hashable, list[Diagnostic]] = {}
        self.elsewhere: list[Diagnostic] = []  # in project modules the cells import

    def feed(self, diagnostics: list[Diagnostic]) -> bool:
        """The diagnostics of `joined.text`; True when the check is complete."""
        broken = broken_cell(self.joined, diagnostics)
        if broken is None or broken in self.masked or len(self.masked) >= self.max_masked:
            self.result = split(self.joined, diagnostics + self.syntax, self.cell_name)
            self.elsewhere = elsewhere(self.joined, diagnostics, self.cell_name)
            return True
        self.syntax += [d for d in diagnostics if d.code == "GL001"]
        self.masked |= {broken}
        self.joined = join(self.cells, self.masked)
        return False


def broken_cell(joined: Joined, diagnostics: list[Diagnostic]) -> int | None:
    """The cell a GL001 (does not parse) points into, if any."""
    for d in diagnostics:
        if d.code == "GL001":
            idx = joined.cell_at(d.start.line)
            return idx if idx is not None else (len(joined.cells) - 1 if joined.cells else None)
    return None
