"""Engine diagnostics -> LSP diagnostics.

`data` carries what a client (or the editor extension) needs to act on a finding without
asking again: the document version it was computed for, the rule name, and the fix as LSP
text edits in the negotiated encoding.
"""

from __future__ import annotations

from lsprotocol import types

from gradlint.diagnostics import Diagnostic, Edit

from .positions import LineIndex

SOURCE = "gradlint"


def text_edit(edit: Edit, index: LineIndex) -> types.TextEdit:
    return types.TextEdit(range=index.range(edit.start, edit.end), new_text=edit.content)


def to_lsp(diag: Diagnostic, index: LineIndex, uri: str, version: int | None, related_support: bool = True) -> types.Diagnostic:
    fix = None
    if diag.fix is not None:
        fix = {
            "message": diag.fix.message,
            "safe": diag.fix.is_safe,
            "edits": [
                {
                    "range": {
                        "start": {"line": e.range.start.line, "character": e.range.start.character},
                        "end": {"line": e.range.end.line, "character": e.range.end.character},
                    },
                    "newText": e.new_text,
                }
                for e in (text_edit(x, index) for x in diag.fix.edits)
            ],
        }
    related = None
    if related_support and diag.related:
        related = [
            types.DiagnosticRelatedInformation(
                location=types.Location(uri=uri, range=index.range(pos, pos)), message=msg
            )
            for pos, msg in diag.related
        ]
    return types.Diagnostic(
        range=index.range(diag.start, diag.end),
        message=diag.message,
        severity=types.DiagnosticSeverity(int(diag.severity)),
        code=diag.code,
        code_description=types.CodeDescription(href=diag.url) if diag.url else None,
        source=SOURCE,
        related_information=related,
        data={"version": version, "name": diag.name, "fix": fix},
    )


def server_diagnostic(message: str, severity: types.DiagnosticSeverity = types.DiagnosticSeverity.Information) -> types.Diagnostic:
    """A diagnostic about the server's handling of a file (too large, engine failure), on the
    first line: it must be visible where the user looks, and it is not a rule finding."""
    return types.Diagnostic(
        range=types.Range(start=types.Position(line=0, character=0), end=types.Position(line=0, character=0)),
        message=message,
        severity=severity,
        source=SOURCE,
    )
