"""Every rule's own valid/invalid examples (Fixit style): the rule class is the spec."""

from __future__ import annotations

import ast

import pytest

from gradlint.engine import check_source, fix_source
from gradlint.rules.base import all_rules, dedent, examples_of

RULES = all_rules()
# GL6xx are reported by `gradlint trace` only: their examples are programs to run
# (tests/trace/test_runtime_rule_examples.py runs them); the static engine must stay silent on them.
STATIC = [r for r in RULES if not r.runtime]
RUNTIME = [r for r in RULES if r.runtime]
ANALYSED = [r for r in STATIC if not r.code.startswith("GL00")]  # GL0xx: reported by the engine itself


def _cases(kind: str):
    for rule in STATIC:
        valid, invalid = examples_of(rule)
        for i, ex in enumerate(valid if kind == "valid" else invalid):
            yield pytest.param(rule, ex, id=f"{rule.code}-{kind}-{i}")


@pytest.mark.parametrize("rule,example", list(_cases("invalid")))
def test_invalid_example_is_flagged(rule, example):
    code = dedent(example.code)
    diags = [d for d in check_source(code, "example.py", select=[rule.code]) if d.code == rule.code]
    assert diags, f"{rule.code} did not flag its own invalid example"
    if example.line is not None:
        assert any(d.start.line == example.line for d in diags), [(d.start.line, d.message) for d in diags]
    for d in diags:
        assert d.message and d.name == rule.name and d.url
    if example.fixed is not None:
        fixed, n = fix_source(code, "example.py", select_codes=[rule.code], unsafe=True)
        assert n >= 1
        assert fixed == dedent(example.fixed)
        ast.parse(fixed)


@pytest.mark.parametrize("rule,example", list(_cases("valid")))
def test_valid_example_is_clean(rule, example):
    code = dedent(example.code)
    diags = [d for d in check_source(code, "example.py") if d.code == rule.code]
    assert not diags, [(d.start.line, d.message) for d in diags]


@pytest.mark.parametrize("rule", ANALYSED, ids=lambda r: r.code)
def test_rule_anatomy(rule):
    assert rule.code.startswith("GL") and len(rule.code) == 5
    assert rule.name and rule.name == rule.name.lower() and " " not in rule.name
    assert rule.message and rule.rationale and rule.docs and rule.docs.startswith("https://")
    assert rule.triggers, "a rule needs triggers for the cheap first pass"
    valid, invalid = examples_of(rule)
    assert valid and invalid, "every rule carries valid and invalid examples"
    page = rule.page()
    assert rule.code in page and rule.name in page


@pytest.mark.parametrize("rule", ANALYSED, ids=lambda r: r.code)
def test_invalid_examples_contain_a_trigger(rule):
    # the prefilter must never hide a rule's own examples
    _, invalid = examples_of(rule)
    for ex in invalid:
        assert any(t in ex.code for t in rule.triggers), rule.triggers


def test_codes_are_unique_and_families_match():
    names = [r.name for r in RULES]
    assert len(set(names)) == len(names)


@pytest.mark.parametrize("rule", RUNTIME, ids=lambda r: r.code)
def test_runtime_rules_never_fire_statically(rule):
    assert rule.message and rule.rationale and rule.docs and rule.code.startswith("GL6")
    valid, invalid = examples_of(rule)
    assert valid and invalid and all(i.line for i in invalid)
    for ex in valid + invalid:
        assert not [d for d in check_source(dedent(ex.code), "example.py") if d.code == rule.code]
    assert "gradlint trace" in rule.page()
