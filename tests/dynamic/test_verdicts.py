"""Each verdict of the in-process API, and what the report says about it."""

from __future__ import annotations

import json

import pytest

torch = pytest.importorskip("torch")

import functions as F

from gradlint.dynamic import gradcheck
from gradlint.dynamic.text import format_text


def by_name(report):
    return {i.name: i for i in report.inputs}


def test_pass_reports_every_input_and_is_json():
    r = gradcheck(F.smooth, torch.randn(4, 5), torch.randn(4, 5))
    assert r.verdict == "pass" and r.exit_code == 0
    assert [i.name for i in r.inputs] == ["x", "y"]
    for i in r.inputs:
        assert i.status == "ok" and i.ratio < 1 and i.resolution < 1e-6
        assert i.noise_floor > 0 and i.tolerance > i.noise_floor
    data = json.loads(r.to_json())
    assert data["verdict"] == "pass" and data["dtype"] == "float64" and data["target_dtype"] == "float32"
    assert "agree with finite differences" in r.explanation
    assert "PASS" in format_text(r)


def test_backward_off_by_one_percent_fails_with_elements_and_the_factor():
    r = gradcheck(F.ScaledSoftplus, torch.randn(24, 24))
    assert r.verdict == "fail" and r.exit_code == 1
    x = r.inputs[0]
    assert x.status == "mismatch" and x.ratio > 100
    assert x.worst, "the mismatch is localised to elements"
    for w in x.worst:
        assert w.analytical / w.numerical == pytest.approx(1.01, rel=1e-6)
    assert "constant factor" in r.explanation


def test_transposed_saved_tensor_fails():
    r = gradcheck(F.TransposedSoftplus, torch.randn(12, 12))
    assert r.verdict == "fail"
    assert r.inputs[0].worst


def test_kink_exactly_at_the_input_is_inconclusive_not_a_failure():
    r = gradcheck(torch.relu, torch.zeros(6))
    assert r.verdict == "inconclusive" and r.exit_code == 1
    assert r.inputs[0].status == "nonsmooth"
    assert "kink" in r.explanation


def test_nonfinite_output_is_inconclusive_and_says_where():
    x = torch.tensor([1.0, -1.0, 2.0])
    r = gradcheck(F.log_of, x)
    assert r.verdict == "inconclusive"
    assert "NaN" in r.explanation and "[1]" in r.explanation


def test_nan_gradient_with_a_finite_forward_fails():
    r = gradcheck(F.nan_gradient, torch.tensor([1.0, -2.0, 3.0]))
    assert r.verdict == "fail"
    assert r.inputs[0].status == "nonfinite" and "NaN" in r.explanation


def test_a_cut_graph_is_caught_and_named():
    r = gradcheck(F.detached_half, torch.randn(5), torch.randn(5))
    assert r.verdict == "fail"
    y = by_name(r)["y"]
    assert y.status == "mismatch" and "graph is cut" in y.note


def test_unused_input_is_reported_disconnected_not_failed():
    r = gradcheck(lambda x, y: (x * x).sum(), torch.randn(3), torch.randn(3))
    assert r.verdict == "pass"
    assert by_name(r)["y"].status == "disconnected"
    assert "disconnected" in r.explanation


def test_backward_that_differs_between_identical_calls_is_nondeterministic():
    r = gradcheck(F.NoisyBackward, torch.randn(10))
    assert r.verdict == "fail"
    assert r.nondeterministic and r.nondeterministic["x"]["above_tolerance"]
    assert "identical backward passes differ" in r.explanation


def test_dropout_is_checked_for_one_fixed_draw():
    r = gradcheck(F.with_dropout, torch.randn(50))
    assert r.verdict == "pass"
    assert any("random numbers" in n for n in r.notes)


def test_error_when_the_target_raises():
    def broken(x):
        raise ValueError("negative widths are not supported")

    r = gradcheck(broken, torch.randn(3))
    assert r.verdict == "error" and r.exit_code == 2
    assert r.error["kind"] == "exception"
    assert "ValueError" in r.explanation and "negative widths" in r.explanation
    assert "Traceback" in r.error["traceback"]


def test_error_when_nothing_is_differentiable():
    r = gradcheck(lambda i: i.float().sum(), torch.arange(4))
    assert r.verdict == "error" and "no floating-point inputs" in r.explanation


def test_float32_target_gets_the_float32_floor_and_the_fd_quantum_of_a_summed_loss():
    torch.manual_seed(0)
    target = torch.randn(140, 120)
    loss = torch.nn.MSELoss(reduction="sum")
    r = gradcheck(lambda x: loss((x + 1) / 2, target.to(x.dtype)), torch.randn(140, 120))
    assert r.verdict == "pass"
    info = r.float32["loss"]
    assert 2.0e4 < info["value"] < 3.0e4
    assert info["ulp"] == 2.0 ** -9 and info["ulp_power_of_two"] == "2^-9"
    assert info["fd_quantum"]["1e-3"] == pytest.approx(1.953125)
    assert "ulp(L)/h = 1.95" in r.explanation
    assert "cannot work" in r.explanation
    assert 1e-4 < r.float32["detection_floor"] < 1.0


def test_check_in_float32_on_request():
    r = gradcheck(F.smooth, torch.randn(4, 5), torch.randn(4, 5), dtype="float32")
    assert r.verdict == "pass" and r.dtype == "float32"
    assert all(i.dtype == "float32" for i in r.inputs)
    assert 1e-8 < r.inputs[0].resolution < 0.05  # float32 cannot resolve what float64 does


def test_module_class_is_instantiated_and_its_parameters_checked():
    r = gradcheck(F.TinyMLP)
    assert r.verdict == "pass" and r.kind == "nn.Module"
    names = [i.name for i in r.inputs]
    assert names[0] == "x" and "net.0.weight" in names and "net.2.bias" in names
    assert {i.kind for i in r.inputs} == {"input", "parameter"}


def test_module_instance_is_not_modified():
    m = F.TinyMLP()
    before = m.net[0].weight.detach().clone()
    r = gradcheck(m, torch.randn(3, 6))
    assert r.verdict == "pass"
    assert m.net[0].weight.dtype == torch.float32 and torch.equal(m.net[0].weight, before)


def test_bad_dtype_is_a_usage_error():
    r = gradcheck(F.smooth, torch.randn(2), torch.randn(2), dtype="float16")
    assert r.verdict == "error" and "float64 or float32" in r.explanation
