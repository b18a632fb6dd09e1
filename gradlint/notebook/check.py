"""`gradlint check` on a notebook: check the code cells as one module, fix them, diff them.

Fixes are applied to each cell's own source (the positions `cells.split` gives are the
cell's), in passes until none is left, as for a .py file; the notebook is then written back
with only the changed sources replaced (`ipynb.Notebook.with_sources`).
"""

from __future__ import annotations

import difflib
from collections.abc import Callable
from dataclasses import dataclass, replace

from ..config import Config
from ..diagnostics import Diagnostic, Edit
from ..source import apply_edits, split_lines_keepends
from . import ipynb
from .cells import CellsCheck

MAX_PASSES = 4  # as engine.fix_source


@dataclass
class NotebookOutcome:
    diagnostics: list[Diagnostic]  # in "fix" mode those left after fixing
    data: bytes | None = None  # the new file, when fixes changed it
    fixed: int = 0
    original: list[Diagnostic] | None = None  # those of the file as it was, when it changed
    diff: str | None = None  # "diff" mode: per changed cell, a unified diff of its source


def check_notebook(
    data: bytes,
    path: str,
    config: Config,
    check: Callable[[str], list[Diagnostic]],
    io_error: Callable[[str], list[Diagnostic]],
    *,
    mode: str | None = None,
    unsafe: bool = False,
    name: str | None = None,
) -> NotebookOutcome:
    """`check(text)` checks one text as the file `path` (the caller's guarded engine call);
    `io_error(message)` makes its GL003 (empty when GL003 is not selected)."""
    try:
        nb = ipynb.read(data)
    except ipynb.NotebookError as exc:
        return NotebookOutcome(io_error(f"cannot read notebook: {exc}"))
    if not nb.is_python:
        return NotebookOutcome([])  # an R or Julia notebook: nothing for a Python linter (ruff skips it too)
    sources = {c.index: c.source for c in nb.code_cells}
    diags = _check_cells(sources, check)
    if mode is None or not any(_applicable(d, unsafe) for d in diags):
        return NotebookOutcome(diags)

    current, applied = diags, 0
    fixed = dict(sources)
    for _ in range(MAX_PASSES):
        edits: dict[int, list[Edit]] = {}
        fixes = 0
        for d in current:
            if _applicable(d, unsafe) and d.cell is not None:
                edits.setdefault(d.cell - 1, []).extend(d.fix.edits)
                fixes += 1
        new = {i: apply_edits(src, edits[i]) if i in edits else src for i, src in fixed.items()}
        if new == fixed:
            break
        fixed, applied = new, applied + fixes
        current = _check_cells(fixed, check)
    if fixed == sources:
        return NotebookOutcome(diags)
    try:
        text = nb.with_sources(fixed)
    except ipynb.NotebookError as exc:
        return NotebookOutcome(diags + io_error(f"cannot write fixes: {exc}"))
    out = NotebookOutcome(current if mode == "fix" else diags, (ipynb.BOM if nb.bom else b"") + text.encode("utf-8"), applied, diags)
    if mode == "diff":
        label = name or path
        out.diff = "".join(_diff(sources[i], fixed[i], f"{label}:cell {i + 1}") for i in sorted(fixed) if fixed[i] != sources[i])
    return out


def _applicable(d: Diagnostic, unsafe: bool) -> bool:
    return d.fix is not None and bool(d.fix.edits) and (unsafe or d.fix.is_safe)


def _check_cells(sources: dict[int, str], check: Callable[[str], list[Diagnostic]]) -> list[Diagnostic]:
    """The findings of the code cells checked together, each with its cell's number."""
    run = CellsCheck(list(sources.items()), cell_name=lambda index: str(index + 1))  # type: ignore[operator]  # keys are the cell indices
    while not run.feed(check(run.joined.text)):
        pass
    out = [replace(d, cell=int(index) + 1) for index, found in run.result.items() for d in found]  # type: ignore[call-overload]
    out.sort(key=Diagnostic.sort_key)
    return out + run.elsewhere  # with --project: in the modules the cells import


def _diff(old: str, new: str, label: str) -> str:
    """A unified diff of one cell's source (ruff shows notebook fixes per cell, so)."""
    a = [x for x in split_lines_keepends(old) if x]
    b = [x for x in split_lines_keepends(new) if x]
    return "".join(line if line.endswith("\n") else line + "\n" for line in difflib.unified_diff(a, b, label, label))
