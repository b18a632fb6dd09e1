"""SARIF 2.1.0 for GitHub code scanning (`github/codeql-action/upload-sarif`).

Every rule is listed in `tool.driver.rules` with its page as help, so code scanning can show
the rationale next to an alert. Locations are relative to `%SRCROOT%` (the working directory,
which is the checkout root in CI); regions are 1-based with columns in code points, as the
run's `columnKind` says.

A region must be in the artifact's own text, so a notebook's finding points at the line of the
.ipynb's JSON that holds the cell's line (code scanning shows that snippet); the cell and its
line are in the message and in the result's `properties`.
"""

from __future__ import annotations

import json
import os
import pathlib
from collections.abc import Sequence
from urllib.parse import quote

from .._version import __version__
from ..diagnostics import Diagnostic, Edit, Position, Severity
from . import OutputContext

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
INFORMATION_URI = "https://github.com/gradlint-autograd/gradlint"
LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}
# Shown as labels on code-scanning alerts.
FAMILY_TAG = {
    "GL0": "gradlint", "GL1": "graph-break", "GL2": "graph-lifetime", "GL3": "gradient-state",
    "GL4": "numerical-precision", "GL5": "api-misuse",
}


def _rules(docs_url) -> list[dict]:
    from ..rules.base import all_rules

    out = []
    for rule in all_rules():
        out.append(
            {
                "id": rule.code,
                "name": rule.name,
                "shortDescription": {"text": rule.message},
                "fullDescription": {"text": rule.rationale or rule.message},
                "help": {"text": rule.rationale or rule.message, "markdown": rule.page()},
                "helpUri": docs_url(rule.code),
                "defaultConfiguration": {"level": LEVEL.get(rule.severity, "warning")},
                "properties": {
                    "tags": ["autograd"] + ([FAMILY_TAG[rule.code[:3]]] if rule.code[:3] in FAMILY_TAG else []),
                    "fixable": rule.fix_applicability is not None,
                },
            }
        )
    return out


def _artifact(path: str, ctx: OutputContext) -> dict:
    if path in ("-", "<stdin>") or not os.path.isabs(path):
        return {"uri": quote(path.replace(os.sep, "/")), "uriBaseId": "%SRCROOT%"}
    rel = os.path.relpath(path, ctx.cwd) if _below(path, ctx.cwd) else None
    if rel is None:
        return {"uri": pathlib.Path(path).as_uri()}
    return {"uri": quote(rel.replace(os.sep, "/")), "uriBaseId": "%SRCROOT%"}


def _below(path: str, root: str) -> bool:
    try:
        return os.path.commonpath([path, root]) == root
    except ValueError:
        return False


def _region(start: Position, end: Position) -> dict:
    return {
        "startLine": start.line,
        "startColumn": start.column + 1,
        "endLine": max(end.line, start.line),
        "endColumn": end.column + 1 if end >= start else start.column + 1,
    }


def _replacement(e: Edit) -> dict:
    return {"deletedRegion": _region(e.start, e.end), "insertedContent": {"text": e.content}}


def _result(d: Diagnostic, index: dict[str, int], ctx: OutputContext) -> dict:
    artifact = _artifact(d.path, ctx)
    res: dict = {
        "ruleId": d.code,
        "level": LEVEL.get(d.severity, "warning"),
        "message": {"text": d.message},
        "locations": [{"physicalLocation": {"artifactLocation": artifact, "region": _region(*ctx.file_positions(d))}}],
    }
    if d.code in index:
        res["ruleIndex"] = index[d.code]
    if d.cell is not None:
        # the region is in the .ipynb's JSON; where that is in the notebook, as people read it
        res["message"]["text"] = f"cell {d.cell}, line {d.start.line}: {d.message}"
        res["properties"] = {"cell": d.cell, "cellLine": d.start.line, "cellColumn": d.start.column + 1}
    if d.fix is not None and d.cell is None:  # (a cell's edits are not edits of the JSON text)
        res["fixes"] = [
            {
                "description": {"text": f"{d.fix.message} ({d.fix.applicability.value})"},
                "artifactChanges": [
                    {"artifactLocation": artifact, "replacements": [_replacement(e) for e in d.fix.edits]}
                ],
            }
        ]
    return res


def to_sarif(diagnostics: Sequence[Diagnostic], ctx: OutputContext) -> dict:
    rules = _rules(ctx.url_for)
    index = {r["id"]: i for i, r in enumerate(rules)}
    root_uri = pathlib.Path(ctx.cwd).as_uri().rstrip("/") + "/"
    return {
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "gradlint",
                        "informationUri": INFORMATION_URI,
                        "version": __version__,
                        "semanticVersion": __version__,
                        "rules": rules,
                    }
                },
                "originalUriBaseIds": {"%SRCROOT%": {"uri": root_uri}},
                "columnKind": "unicodeCodePoints",
                "results": [_result(d, index, ctx) for d in diagnostics],
            }
        ],
    }


def render(diagnostics: Sequence[Diagnostic], ctx: OutputContext) -> str:
    return json.dumps(to_sarif(diagnostics, ctx), indent=2, ensure_ascii=False) + "\n"
