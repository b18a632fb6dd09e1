"""Code actions: quick fixes, "Disable GLxxx for this line", `source.fixAll.gradlint`, and
"Check gradients of NAME".

All edits are computed against `DocView.text`, the exact text the diagnostics were computed
for, and carry its version (when the client takes versioned edits), so an edit can never be
applied to a buffer that changed since.
"""

from __future__ import annotations

from dataclasses import dataclass
from collections.abc import Iterable, Sequence

from lsprotocol import types

from gradlint.diagnostics import Diagnostic, Edit
from gradlint.source import SourceText, apply_edits, noqa_edit

from . import targets as targets_mod
from .client import ClientFeatures
from .convert import text_edit, to_lsp
from .positions import LineIndex, minimal_edit

FIX_ALL = "source.fixAll.gradlint"
GRADCHECK_KIND = ""  # no standard kind fits "run a check"; "" shows in every code-action menu
GRADCHECK_COMMAND = "gradlint.gradcheck"
SHOW_REPORT_COMMAND = "gradlint.showReport"


@dataclass
class DocView:
    uri: str
    text: str
    version: int | None
    index: LineIndex
    diagnostics: Sequence[Diagnostic]
    path: str | None  # file system path; None for unsaved buffers
    notebook_cell: bool = False


def wants(kind: str, only: Sequence[str] | None) -> bool:
    """LSP kind filtering: `only` lists kinds or parent kinds ("source" covers
    "source.fixAll.gradlint")."""
    if only is None:
        return True
    return any(kind == k or (k and kind.startswith(k + ".")) for k in only)


def _touches(d: Diagnostic, rng: types.Range) -> bool:
    return d.start.line - 1 <= rng.end.line and d.end.line - 1 >= rng.start.line


def workspace_edit(view: DocView, edits: list[types.TextEdit], client: ClientFeatures) -> types.WorkspaceEdit:
    if client.document_changes:
        return types.WorkspaceEdit(
            document_changes=[
                types.TextDocumentEdit(
                    text_document=types.OptionalVersionedTextDocumentIdentifier(uri=view.uri, version=view.version),
                    edits=edits,
                )
            ]
        )
    return types.WorkspaceEdit(changes={view.uri: edits})


def _lsp(view: DocView, d: Diagnostic, client: ClientFeatures) -> types.Diagnostic:
    return to_lsp(d, view.index, view.uri, view.version, client.related_information)


def quick_fixes(view: DocView, rng: types.Range, client: ClientFeatures) -> list[types.CodeAction]:
    out = []
    for d in view.diagnostics:
        if d.fix is None or not d.fix.edits or not _touches(d, rng):
            continue
        out.append(
            types.CodeAction(
                title=f"{d.fix.message} ({d.code})" if d.fix.message else f"Fix {d.code}",
                kind=types.CodeActionKind.QuickFix,
                diagnostics=[_lsp(view, d, client)],
                is_preferred=d.fix.is_safe,
                edit=workspace_edit(view, [text_edit(e, view.index) for e in d.fix.edits], client),
            )
        )
    return out


def noqa_actions(view: DocView, rng: types.Range, client: ClientFeatures) -> list[types.CodeAction]:
    out = []
    seen: set[tuple[int, str]] = set()
    src = SourceText(view.text)
    for d in view.diagnostics:
        key = (d.start.line, d.code)
        if key in seen or not _touches(d, rng) or d.code.startswith("GL00"):
            continue  # (GL00x: a syntax error or a crash is fixed, not silenced)
        seen.add(key)
        edit = noqa_edit(src, d.start.line, d.code)
        if edit.content == "" and edit.start == edit.end:
            continue  # a blanket noqa comment already covers the line
        out.append(
            types.CodeAction(
                title=f"Disable {d.code} for this line",
                kind=types.CodeActionKind.QuickFix,
                diagnostics=[_lsp(view, d, client)],
                edit=workspace_edit(view, [text_edit(edit, view.index)], client),
            )
        )
    return out


def has_safe_fix(diags: Iterable[Diagnostic]) -> bool:
    return any(d.fix is not None and d.fix.is_safe and d.fix.edits for d in diags)


def fix_all_action(view: DocView, new_text: str | None, client: ClientFeatures) -> types.CodeAction | None:
    """`new_text` None: a lazy action, to be completed by `codeAction/resolve`."""
    action = types.CodeAction(title="Fix all auto-fixable gradlint problems", kind=FIX_ALL)
    if new_text is None:
        action.data = {"uri": view.uri, "version": view.version, "kind": FIX_ALL}
        return action
    edit = minimal_edit(view.text, new_text, view.index)
    if edit is None:
        return None
    action.edit = workspace_edit(view, [edit], client)
    return action


def cell_fixed_text(view: DocView) -> str:
    """Safe fixes of a notebook cell, from the diagnostics of the whole notebook's check (one
    pass: fix_source re-checks a file, and a cell alone is not the module)."""
    edits: list[Edit] = [e for d in view.diagnostics if d.fix is not None and d.fix.is_safe for e in d.fix.edits]
    return apply_edits(view.text, edits) if edits else view.text


def gradcheck_action(view: DocView, rng: types.Range, client: ClientFeatures, enabled: bool, found: list[targets_mod.Target]) -> types.CodeAction | None:
    if view.notebook_cell or view.path is None:
        return None  # the checker imports the saved .py file; a cell or an untitled buffer has none
    target = targets_mod.target_at(view.text, rng.start.line + 1, found)
    if target is None:
        return None
    title = f"Check gradients of {target.qualname}"
    if not enabled:
        if not client.disabled_actions:
            return None
        return types.CodeAction(
            title=title, kind=GRADCHECK_KIND,
            disabled=types.CodeActionDisabled(reason="gradient checks run your code: they are off in this workspace (dynamicChecks: false)"),
        )
    args = {"uri": view.uri, "target": f"{view.path}::{target.qualname}", "line": target.line - 1}
    return types.CodeAction(
        title=title, kind=GRADCHECK_KIND,
        command=types.Command(title=title, command=GRADCHECK_COMMAND, arguments=[args]),
    )


def report_actions(view: DocView, rng: types.Range, verdicts: list[tuple[str, types.Diagnostic]]) -> list[types.CodeAction]:
    out = []
    for qualname, diag in verdicts:
        if diag.range.start.line <= rng.end.line and diag.range.end.line >= rng.start.line:
            title = f"Show the gradient-check report of {qualname}"
            out.append(
                types.CodeAction(
                    title=title, kind=GRADCHECK_KIND, diagnostics=[diag],
                    command=types.Command(title=title, command=SHOW_REPORT_COMMAND, arguments=[{"uri": view.uri, "target": qualname}]),
                )
            )
    return out
