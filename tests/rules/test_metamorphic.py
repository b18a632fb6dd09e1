"""Every spelling (issue 15): each rule's examples, rewritten into equivalent programs
(tests/rules/metamorphic_spellings.py), keep their verdict — an invalid example is still flagged by its
rule on the line it moved to, a valid one stays clean."""

from __future__ import annotations

import ast

import pytest

from gradlint.engine import check_source
from gradlint.rules.base import all_rules, dedent, examples_of

from metamorphic_spellings import variants

STATIC = [r for r in all_rules() if not r.runtime and not r.code.startswith("GL00")]


def _cases(kind: str):
    for rule in STATIC:
        valid, invalid = examples_of(rule)
        for i, ex in enumerate(invalid if kind == "invalid" else valid):
            for v in variants(dedent(ex.code)):
                yield pytest.param(rule, ex, v, id=f"{rule.code}-{kind}-{i}-{v.name}")


@pytest.mark.parametrize("rule,example,variant", list(_cases("invalid")))
def test_invalid_variant_is_flagged(rule, example, variant):
    ast.parse(variant.code)
    lines = [d.start.line for d in check_source(variant.code, "variant.py") if d.code == rule.code]
    assert lines, f"{rule.code} lost its finding in the {variant.name} spelling:\n{variant.code}"
    if example.line is not None:
        assert variant.line_map(example.line) in lines, (lines, variant.code)


@pytest.mark.parametrize("rule,example,variant", list(_cases("valid")))
def test_valid_variant_is_clean(rule, example, variant):
    ast.parse(variant.code)
    found = [(d.start.line, d.message) for d in check_source(variant.code, "variant.py") if d.code == rule.code]
    assert not found, f"{rule.code} flags the {variant.name} spelling of a valid example:\n{variant.code}"


def test_the_transformations_apply() -> None:
    """The generator is not vacuous: most examples have every kind of variant."""
    counts: dict[str, int] = {}
    for rule in STATIC:
        valid, invalid = examples_of(rule)
        for ex in valid + invalid:
            for v in variants(dedent(ex.code)):
                counts[v.name] = counts.get(v.name, 0) + 1
    assert set(counts) == {"aliased-imports", "inside-a-function", "renamed-variables"}
    assert min(counts.values()) >= 50, counts
