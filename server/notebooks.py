"""Notebooks: lint the code cells as one module, so that names defined in earlier cells are
known to later ones, then map each diagnostic back to its cell.

The cells are joined line by line (no lines added or removed), with a line map. IPython
syntax is neutralised without moving columns: a `%magic` / `!shell` line becomes a comment, and
a `%%cell_magic` cell is commented out whole. A cell that does not parse can be masked (its
lines blanked) so that one half-typed cell does not hide every other cell's findings.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from gradlint.diagnostics import Diagnostic, Edit, Fix, Position

_LINE_MAGIC = re.compile(r"^(\s*)[%!]")


@dataclass(frozen=True)
class CellSpan:
    uri: str
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


def _neutralise(text: str) -> list[str]:
    body = text[:-1] if text.endswith("\n") else text
    lines = body.split("\n")
    first = next((ln.strip() for ln in lines if ln.strip()), "")
    if first.startswith("%%"):
        return ["#" + ln[1:] if ln else ln for ln in lines]
    return [_LINE_MAGIC.sub(lambda m: m.group(1) + "#", ln, count=1) for ln in lines]


def join(cells: list[tuple[str, str]], masked: frozenset[int] = frozenset()) -> Joined:
    """`cells`: (uri, text) of the code cells in notebook order."""
    out: list[str] = []
    spans: list[CellSpan] = []
    for i, (uri, text) in enumerate(cells):
        lines = _neutralise(text)
        if i in masked:
            lines = [""] * len(lines)
        spans.append(CellSpan(uri, len(out) + 1, len(lines)))
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
        if not cell.contains(e.start.line) or not (cell.contains(e.end.line) or (e.end.line == cell.start + cell.count and e.end.column == 0)):
            return None
        edits.append(Edit(_shift(e.start, cell), _shift(e.end, cell), e.content))
    return replace(fix, edits=tuple(edits))


def split(joined: Joined, diagnostics: list[Diagnostic]) -> dict[str, list[Diagnostic]]:
    """Per cell URI, the diagnostics with cell-local positions (every cell gets a list, so
    that a cell whose findings went away is cleared)."""
    out: dict[str, list[Diagnostic]] = {c.uri: [] for c in joined.cells}
    for d in diagnostics:
        idx = joined.cell_at(d.start.line)
        if idx is None:
            if not joined.cells:
                continue
            idx = len(joined.cells) - 1  # e.g. "unexpected EOF" just past the last line
            d = replace(d, start=Position(joined.cells[idx].start + joined.cells[idx].count - 1, 0), end=Position(joined.cells[idx].start + joined.cells[idx].count - 1, 0))
        cell = joined.cells[idx]
        end = d.end if cell.contains(d.end.line) else Position(cell.start + cell.count - 1, 10**9)
        related = tuple((_shift(p, cell), m) for p, m in d.related if cell.contains(p.line))
        out[cell.uri].append(
            replace(d, start=_shift(d.start, cell), end=_shift(end, cell), fix=_local_fix(d.fix, cell), related=related)
        )
    return out


def broken_cell(joined: Joined, diagnostics: list[Diagnostic]) -> int | None:
    """The cell a GL001 (does not parse) points into, if any."""
    for d in diagnostics:
        if d.code == "GL001":
            idx = joined.cell_at(d.start.line)
            return idx if idx is not None else (len(joined.cells) - 1 if joined.cells else None)
    return None
