"""Hover: the rule page (Markdown) for the findings under the cursor, or for a rule code
written in a comment (`# noqa: GL301`); the gradient-check verdict on a checked def."""

from __future__ import annotations

import re
from collections.abc import Sequence

from lsprotocol import types

from gradlint.diagnostics import Diagnostic, Position
from gradlint.rules import load_all
from gradlint.rules.base import REGISTRY

from .positions import LineIndex

_CODE = re.compile(r"\bGL\d{3}\b")


def rule_page(code: str) -> str | None:
    load_all()
    rule = REGISTRY.get(code)
    if rule is None:
        return None
    try:
        return rule.page()
    except Exception:  # a broken page must not break hover
        return f"# {code}\n\n{rule.message}\n"


def _contains(d: Diagnostic, pos: Position) -> bool:
    if d.start.line == d.end.line == pos.line and d.start.column == d.end.column:
        return True  # a zero-width finding: anywhere on its line
    return (d.start.line, d.start.column) <= (pos.line, pos.column) <= (d.end.line, d.end.column)


def hover(index: LineIndex, diagnostics: Sequence[Diagnostic], pos: types.Position, verdicts: Sequence[types.Diagnostic] = ()) -> types.Hover | None:
    if pos.line >= len(index.lines):
        return None
    here = index.to_engine(pos)
    parts: list[str] = []
    rng = None
    seen: set[str] = set()
    for d in diagnostics:
        if _contains(d, here) and d.code not in seen:
            seen.add(d.code)
            page = rule_page(d.code)
            if page:
                parts.append(f"**{d.message}**\n\n{page}" if d.message else page)
                rng = rng or index.range(d.start, d.end)
    for v in verdicts:
        if v.range.start.line <= pos.line <= v.range.end.line:
            parts.append(f"**{v.message}**\n\nRun the code action \"Show the gradient-check report\" for the details.")
            rng = rng or v.range
    if not parts:
        line = index.line(pos.line)
        for m in _CODE.finditer(line):
            if m.start() <= here.column <= m.end():
                page = rule_page(m.group(0))
                if page:
                    parts.append(page)
                    rng = index.range(Position(here.line, m.start()), Position(here.line, m.end()))
                break
    if not parts:
        return None
    return types.Hover(
        contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value="\n\n---\n\n".join(parts)),
        range=rng,
    )
