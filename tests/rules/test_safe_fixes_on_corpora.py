"""Every safe fix, applied to every program of the repository's corpora (the labelled snippets,
the mined real-world development half, the rule fixtures): the result still parses, and checking
it again finds nothing new — a value a fix rewrote (`.item()`, `.detach()`, `torch.stack`) is
not backpropagated or used as a tensor afterwards, which a new finding would say. (The
behaviour of fixed programs is run in test_safe_fixes_keep_behaviour.py; the real training
repositories are covered by benchmarks/safe_fixes_real.py.)"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from gradlint.engine import check_source, fix_source

ROOT = Path(__file__).resolve().parents[1]
FILES = sorted(
    p for d in ("corpus", "realworld/dev", "rules/fixtures") for p in (ROOT / d).rglob("*.py")
    if not p.name.endswith((".fixed.py", ".unsafe-fixed.py"))
)


def _key(d) -> tuple:
    return (d.code, d.message.split(":")[0])


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_safe_fixes_leave_a_program_that_checks_clean_of_new_findings(path: Path) -> None:
    text = path.read_text(encoding="utf-8", errors="replace")
    try:
        ast.parse(text)
    except SyntaxError:
        pytest.skip("not Python 3 (a mined Python 2 snippet)")
    fixed, n = fix_source(text, str(path))
    if n == 0:
        return
    ast.parse(fixed)
    before = {_key(d) for d in check_source(text, str(path))}
    after = [d for d in check_source(fixed, str(path)) if _key(d) not in before]
    assert not after, [(d.start.line, d.code, d.message) for d in after]
