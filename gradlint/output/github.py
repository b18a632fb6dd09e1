"""GitHub Actions workflow commands: one `::error ...::` line per finding, shown as an annotation
on the pull request's diff. The message repeats `path:row:col: CODE message` (as ruff does) so
the line still reads well in a plain log that does not render annotations."""

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
    props = {
        "title": f"gradlint ({d.code})",
        "file": path,
        "line": d.start.line,
        "col": d.start.column + 1,
        "endLine": max(d.end.line, d.start.line),
        "endColumn": d.end.column + 1,
    }
    head = ",".join(f"{k}={escape_property(str(v))}" for k, v in props.items())
    body = f"{path}:{d.start.line}:{d.start.column + 1}: {d.code} {d.message}"
    return f"::{COMMAND.get(d.severity, 'error')} {head}::{escape_data(body)}"


def render(diagnostics: Sequence[Diagnostic], ctx: OutputContext) -> str:
    return "".join(annotation(d, ctx) + "\n" for d in diagnostics)
