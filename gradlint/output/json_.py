"""JSON output shaped like ruff's `--output-format json` (tools that read ruff's read this),
plus `name` and `severity`. Rows and columns are 1-based; `filename` is absolute. A notebook's
finding has its `cell` (1-based) and, as in ruff, rows counted in that cell."""

from __future__ import annotations

import json
import os
from collections.abc import Sequence

from ..diagnostics import Diagnostic, Position
from . import OutputContext


def _loc(p: Position) -> dict:
    return {"row": p.line, "column": p.column + 1}


def _filename(path: str, ctx: OutputContext) -> str:
    if path in ("-", "<stdin>"):
        return path
    return path if os.path.isabs(path) else os.path.normpath(os.path.join(ctx.cwd, path))


def to_json(d: Diagnostic, ctx: OutputContext) -> dict:
    fix = None
    if d.fix is not None:
        fix = {
            "applicability": d.fix.applicability.value,
            "message": d.fix.message,
            "edits": [
                {"content": e.content, "location": _loc(e.start), "end_location": _loc(e.end)}
                for e in d.fix.edits
            ],
        }
    return {
        "cell": d.cell,  # a notebook's (1-based): rows, columns and edits are then the cell's
        "code": d.code,
        "name": d.name,
        "severity": d.severity.label,
        "message": d.message,
        "filename": _filename(d.path, ctx),
        "location": _loc(d.start),
        "end_location": _loc(d.end),
        "fix": fix,
        "url": d.url,
        # Suppression comments are matched on the line where a finding starts.
        "noqa_row": d.start.line,
    }


def render(diagnostics: Sequence[Diagnostic], ctx: OutputContext) -> str:
    return json.dumps([to_json(d, ctx) for d in diagnostics], indent=2, ensure_ascii=False) + "\n"


def render_statistics(rows: Sequence[dict], ctx: OutputContext) -> str:
    return json.dumps(list(rows), indent=2) + "\n"
