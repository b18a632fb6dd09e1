"""The GL6xx rules' own examples are programs: traced, each invalid example is reported at its
line with its code, each valid one is silent (the static engine never reports them:
tests/rules/test_rule_examples.py)."""

from __future__ import annotations

import pytest

from gradlint.rules.base import dedent, examples_of
from gradlint.rules.runtime import runtime_rules
from trace_support import trace

TORCH_RULES = [r for r in runtime_rules() if "torch" in r.frameworks]


@pytest.mark.parametrize("rule", TORCH_RULES, ids=lambda r: r.code)
def test_runtime_rule_examples_when_traced(rule, tmp_path):
    valid, invalid = examples_of(rule)
    for i, ex in enumerate(invalid):
        path = tmp_path / f"invalid{i}.py"
        path.write_text(dedent(ex.code))
        found = [(f["code"], f["line"]) for f in trace(path)["findings"]]
        assert (rule.code, ex.line) in found, found
    for i, ex in enumerate(valid):
        path = tmp_path / f"valid{i}.py"
        path.write_text(dedent(ex.code))
        report = trace(path)
        assert report["findings"] == [] and report["error"] is None, report
