"""GitHub Actions workflow commands: one `::error ...::` line per finding, shown as an annotation
on the pull request's diff. The message repeats `path:row:col: CODE message` (as ruff does) so
the line still reads well in a plain log that does not render annotations.

A notebook's finding is annotated where its line is in the .ipynb file (the JSON string that
holds it, which is what GitHub shows for the file), and the message says `path:cell N:row:col`
(ruff annotates a notebook's findings at a fallback line 1, column 1)."""

from __future__ import annotations

from collections.abc import Sequence

from ..diagnostics import Diagnostic, Severity
from . import OutputContext

COMMAND = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}


def escape_data(s: str) -> str:
    return s.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(s: str) -> str:
    return escape_data(s).replace(":", "%3A").replace(",", "%2C")


def annotation(d: Diagnostic, ctx: OutputContext) -> str:
    path = ctx.relpath(d.path)
    start, end = ctx.file_positions(d)  # a notebook's finding: where the line is in the JSON
    props = {
        "title": f"gradlint ({d.code})",
        "file": path,
        "line": start.line,
        "col": start.column + 1,
        "endLine": max(end.line, start.line),
        "endColumn": end.column + 1,
    }
    head = ",".join(f"{k}={escape_property(str(v))}" for k, v in props.items())
    cell = f"cell {d.cell}:" if d.cell is not None else ""
    body = f"{path}:{cell}{d.start.line}:{d.start.column + 1}: {d.code} {d.message}"
    return f"::{COMMAND.get(d.severity, 'error')} {head}::{escape_data(body)}"


def render(diagnostics: Sequence[Diagnostic], ctx: OutputContext) -> str:
    return "".join(annotation(d, ctx) + "\n" for d in diagnostics)
