"""Every spelling (issue 15): each rule's examples, rewritten into equivalent programs
(tests/rules/metamorphic_spellings.py), keep their verdict — an invalid example is still flagged by its
rule on the line it moved to, a valid one stays clean."""

from __future__ import annotations

import ast

import pytest

from gradlint.engine import check_source
from gradlint.rules.base import all_rules, dedent, examples_of

from metamorphic_spellings import library_trainer_class, library_training_function, variants

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
    assert set(counts) == {"aliased-imports", "inside-a-function", "renamed-variables", "in-a-training-function",
                           "in-a-trainer-class"}
    # a training function needs a top-level loop reading objects built above it: fewer examples
    assert counts.pop("in-a-training-function") >= 30, counts
    assert counts.pop("in-a-trainer-class") >= 30, counts
    assert min(counts.values()) >= 50, counts


# --------------------------------------------------------------------------- the open world
# The library spelling drops what the script built: the training function's objects arrive as
# parameters. What can be proven from their uses must still be found, and nothing may be
# flagged that was not flagged with the objects in sight (unknown stays unknown). These
# examples' findings rest on a fact only the construction shows, so their library spelling is
# rightly silent:
NEEDS_CONSTRUCTION = {
    ("GL117", 0): "that `w` is a tf.Variable (a tensor the tape never watched, and the rebinding loses nothing)",
    ("GL206", 0): "that `opt_d` steps D's parameters (an optimizer given as a parameter steps unknown ones)",
    ("GL305", 0): "that `w` is a leaf that requires grad",
    ("GL401", 0): "the step `eps` and the dtype of `w` (both parameters)",
    ("GL412", 0): "that `model` holds float16 weights (the `.half()` is part of its construction)",
    ("GL508", 1): "that `w` is a tensor: on the path of a backpropagated loss sits any number (`lam * loss`)",
    ("GL706", 0): "that `model` is a Probe: the class is defined, but nothing says this parameter is one",
    ("GL712", 0): "the replacement itself: the library spelling receives the final model and its optimizer",
    ("GL713", 0): "that `params` is a generator the optimizer's constructor already walked (a list given as a parameter is fine)",
}


LIBRARY_SPELLINGS = (library_training_function, library_trainer_class)


def _library_cases(kind: str):
    for rule in STATIC:
        valid, invalid = examples_of(rule)
        for i, ex in enumerate(invalid if kind == "invalid" else valid):
            for spelling in LIBRARY_SPELLINGS:
                v = spelling(dedent(ex.code))
                if v is not None:
                    yield pytest.param(rule, i, ex, v, id=f"{rule.code}-{kind}-{i}-{v.name}")


@pytest.mark.parametrize("rule,index,example,variant", list(_library_cases("invalid")))
def test_library_training_function_keeps_what_uses_prove(rule, index, example, variant):
    lines = [d.start.line for d in check_source(variant.code, "train.py") if d.code == rule.code]
    kept = bool(lines) and (example.line is None or variant.line_map(example.line) in lines)
    if (rule.code, index) in NEEDS_CONSTRUCTION:
        assert not kept, f"{rule.code} is now found from uses: remove it from NEEDS_CONSTRUCTION"
    else:
        assert kept, (lines, variant.code)


@pytest.mark.parametrize("rule,index,example,variant", list(_library_cases("valid")))
def test_library_training_function_of_a_valid_example_is_clean(rule, index, example, variant):
    found = [(d.start.line, d.message) for d in check_source(variant.code, "train.py") if d.code == rule.code]
    assert not found, variant.code


def test_library_cases_exist() -> None:
    assert len(list(_library_cases("invalid"))) >= 15 and len(list(_library_cases("valid"))) >= 15


def _library_fixtures():
    from test_rule_fixtures import _fixtures, expected_findings

    for path in _fixtures():
        text = path.read_text()
        for spelling in LIBRARY_SPELLINGS:
            v = spelling(text)
            if v is not None:
                yield pytest.param(v, {(v.line_map(line), code) for line, code in expected_findings(text)},
                                   id=f"{path.parent.name}/{path.stem}-{v.name}")


@pytest.mark.parametrize("variant,marked", list(_library_fixtures()))
def test_library_spelling_of_a_fixture_adds_no_finding(variant, marked):
    """Every rule fixture whose script has a training loop, as a library function: whatever is
    lost, nothing is found that was not marked (a scaler, an optimizer or a model given as a
    parameter is not a reason for a new finding: GL406 and GL704 were, on an AMP trainer)."""
    found = {(d.start.line, d.code) for d in check_source(variant.code, "train.py") if not d.code.startswith("GL00")}
    assert found <= marked, (sorted(found - marked), variant.code)
