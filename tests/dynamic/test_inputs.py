"""Inputs: explicit expressions, annotations, a module's first layer, probing, and the message
that says what to pass when nothing works."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")

import functions as F

from gradlint.dynamic import gradcheck
from gradlint.dynamic.inputs import InputsError, build, evaluate_expression
from gradlint.dynamic.targets import TargetError, resolve


def shapes(report):
    return {i.name: tuple(i.shape) for i in report.inputs}


def test_expression_tuple_is_the_argument_list_and_anything_else_one_argument():
    two = evaluate_expression("torch.ones(2, 3), np.zeros(4)")
    assert len(two) == 2 and tuple(two[0].shape) == (2, 3)
    one = evaluate_expression("torch.ones(5)")
    assert len(one) == 1 and tuple(one[0].shape) == (5,)


def test_jaxtyping_string_annotations_give_distinct_sizes_per_named_dim():
    r = gradcheck(F.annotated)
    assert r.verdict == "pass" and r.inputs_source == "annotations"
    s = shapes(r)
    batch, out = s["x"][0], s["w"][1]
    assert s["x"][1] == 3 and s["w"][0] == 3
    assert len({batch, out, 3}) == 3, "equal sizes would hide a transposed backward"
    assert r.inputs_expr == f"torch.randn({batch}, 3), torch.randn(3, {out})"


def test_plain_tensor_hint_is_probed():
    r = gradcheck(F.plain_hint)
    assert r.verdict == "pass" and r.inputs_source == "probed"


def test_probing_finds_matmul_shapes():
    r = gradcheck(F.needs_matmul)
    assert r.verdict == "pass"
    s = shapes(r)
    assert s["a"][-1] == s["b"][0]


def test_probing_switches_to_positive_values_when_negative_ones_are_not_finite():
    r = gradcheck(F.needs_positive)
    assert r.verdict == "pass"
    assert any("Positive values" in n for n in r.notes)


@pytest.mark.parametrize("cls, shape", [(F.TinyMLP, (3, 6)), (F.TinyConv, (2, 3, 10, 10))])
def test_module_input_shape_comes_from_its_first_layer(cls, shape):
    r = gradcheck(cls)
    assert r.verdict == "pass" and r.inputs_source == "module"
    assert tuple(r.inputs[0].shape) == shape


def test_embedding_indices_are_not_differentiable_and_the_report_says_so():
    r = gradcheck(F.Embedder)
    assert r.verdict == "pass"
    idx = next(i for i in r.inputs if i.name == "idx")
    assert idx.status == "not_differentiable" and idx.dtype == "int64"
    assert any("integer indices" in n for n in r.notes)
    assert {"emb.weight", "out.weight", "out.bias"} <= {i.name for i in r.inputs}


def test_when_nothing_works_the_error_says_exactly_what_to_pass():
    with pytest.raises(InputsError) as e:
        build(resolve(F.unguessable), None, seed=0)
    msg = str(e.value)
    assert '--inputs "torch.randn(3, 4), torch.randn(3, 4), torch.randn(3, 4)"' in msg
    assert "x, y, z" in msg and "last error" in msg
    r = gradcheck(F.unguessable)
    assert r.verdict == "error" and r.error["kind"] == "inputs" and "--inputs" in r.explanation


def test_a_module_that_needs_constructor_arguments_is_refused_with_advice():
    with pytest.raises(TargetError, match="without arguments"):
        resolve(F.NeedsArgs)
