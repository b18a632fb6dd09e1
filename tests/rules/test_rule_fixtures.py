"""Per-rule fixture files (pylint's functional tests, ruff's fixtures): one generic runner.

`tests/rules/fixtures/GLxxx/<case>.py` is a program; a line that must be flagged ends with a
marker naming the codes found there, `# [GL301]` or `# [GL304, GL305]`. Every rule runs on
every fixture, and the findings must be exactly the markers: a missing finding fails, and so
does any finding that is not marked (a wrong rule on the right line, a false positive, a
GL002 analysis failure). A fixture without markers must be clean. `<case>.fixed.py`, when
present, is the file after `gradlint check --fix` (safe fixes); `<case>.unsafe-fixed.py` after
`--fix --unsafe-fixes` (a rule whose fix is an editor fix). The fast path must report
what the exhaustive path reports.

A regression found in review is one new file here (see docs/architecture.md, "Adding a rule").
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from gradlint.engine import check_source, fix_source
from gradlint.rules import REGISTRY, load_all

FIXTURES = Path(__file__).resolve().parent / "fixtures"
MARKER = re.compile(r"#.*\[(GL\d{3}(?:\s*,\s*GL\d{3})*)\]\s*$")


_FIXED = (".fixed.py", ".unsafe-fixed.py")  # expected fix outputs, not cases


def _fixtures() -> list[Path]:
    return sorted(p for p in FIXTURES.glob("GL*/*.py") if not p.name.endswith(_FIXED))


def expected_findings(text: str) -> set[tuple[int, str]]:
    out = set()
    for i, line in enumerate(text.splitlines(), start=1):
        m = MARKER.search(line)
        if m:
            out |= {(i, code.strip()) for code in m.group(1).split(",")}
    return out


def _found(diags) -> set[tuple[int, str]]:
    return {(d.start.line, d.code) for d in diags}


@pytest.mark.parametrize("path", _fixtures(), ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_fixture(path: Path):
    text = path.read_text(encoding="utf-8")
    diags = check_source(text, str(path))
    expected = expected_findings(text)
    found = _found(diags)
    unexpected = sorted(found - expected)
    missing = sorted(expected - found)
    detail = "\n".join(f"  {d.start.line}: {d.code} {d.message}" for d in diags if (d.start.line, d.code) in unexpected)
    assert not unexpected, f"findings without a marker (line, code): {unexpected}\n{detail}"
    assert not missing, f"markers without a finding (line, code): {missing}"
    assert _found(check_source(text, str(path), exhaustive=True)) == found, "the fast path and the exhaustive path differ"
    fixed_path = path.with_name(path.stem + ".fixed.py")
    if fixed_path.exists():
        fixed, n = fix_source(text, str(path))
        assert n >= 1 and fixed == fixed_path.read_text(encoding="utf-8")
    # an editor fix (`--unsafe-fixes`): what it writes, checked the same way
    unsafe_path = path.with_name(path.stem + ".unsafe-fixed.py")
    if unsafe_path.exists():
        fixed, n = fix_source(text, str(path), unsafe=True)
        assert n >= 1 and fixed == unsafe_path.read_text(encoding="utf-8")


def test_fixture_directories_are_rule_codes():
    load_all()
    for d in FIXTURES.iterdir():
        assert d.is_dir() and d.name in REGISTRY, d.name
        cases = [p for p in d.glob("*.py") if not p.name.endswith(_FIXED)]
        assert cases, f"{d.name} has no fixture"
        # each rule's directory shows the rule firing at least once
        assert any((code == d.name) for p in cases for _, code in expected_findings(p.read_text(encoding="utf-8"))), d.name
    for fixed in FIXTURES.glob("GL*/*fixed.py"):
        assert fixed.with_name(fixed.name.replace(".unsafe-fixed.py", ".py").replace(".fixed.py", ".py")).exists(), fixed


def test_every_analysed_rule_has_fixtures():
    load_all()
    # GL6xx (runtime rules) are observed by `gradlint trace`: their fixtures are the traced
    # scripts in tests/trace/
    missing = [
        code for code, rule in REGISTRY.items()
        if not code.startswith("GL0") and not rule.runtime and not (FIXTURES / code).is_dir()
    ]
    assert not missing, missing


def test_markers_are_read_exactly():
    text = "x = 1  # [GL301]\ny = 2  # mentions [GL302] but not at the end, so no marker: z\nz = 3  # note [GL304, GL305]\n"
    assert expected_findings(text) == {(1, "GL301"), (3, "GL304"), (3, "GL305")}


def test_the_runner_fails_on_a_wrong_rule_and_on_a_missing_finding():
    text = (FIXTURES / "GL205" / "flagged.py").read_text(encoding="utf-8")
    found = _found(check_source(text, "x.py"))
    assert found == expected_findings(text)
    wrong = text.replace("# [GL205]", "# [GL301]")  # the right line, the wrong rule
    assert _found(check_source(wrong, "x.py")) != expected_findings(wrong)
    unmarked = text.replace("  # [GL205]", "")  # a finding without a marker
    assert _found(check_source(unmarked, "x.py")) - expected_findings(unmarked)
