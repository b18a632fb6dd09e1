"""--against: a hand-written gradient compared with autograd, in ulps."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")

import functions as F

from gradlint.dynamic import gradcheck


def test_the_classic_one_ulp_difference_in_float32_is_reported_as_rounding():
    # -1/a**2 by hand vs autograd's gradient of 1/a at a = 1.3: the values are about -0.59,
    # where one float32 ulp is 2^-24 = 5.96e-08, and they differ by exactly that.
    r = gradcheck(F.recip, torch.tensor([1.3, 1.1]), against=F.recip_grad, dtype="float32")
    assert r.verdict == "pass"
    row = r.against["inputs"][0]
    assert row["max_abs_diff"] == 2.0 ** -24
    assert row["index"] == [0] and row["ulps_at_max_diff"] == 1.0 and row["max_ulps"] == 1.0
    assert "5.96e-08" in r.explanation and "1 ulp of float32" in r.explanation
    assert "rounding, not a bug" in r.explanation


def test_over_many_values_the_two_formulas_stay_within_two_ulps():
    r = gradcheck(F.recip, torch.linspace(0.72, 1.4, 300), against=F.recip_grad, dtype="float32")
    assert r.verdict == "pass"
    assert r.against["inputs"][0]["max_ulps"] <= 2.0


def test_a_wrong_hand_written_gradient_fails():
    r = gradcheck(F.recip, torch.rand(6) + 0.5, against=F.recip_grad_wrong)
    assert r.verdict == "fail"
    assert r.against["wrong"]
    assert "hand-written gradient for a is wrong" in r.explanation


def test_a_hand_written_gradient_of_the_wrong_shape_fails_with_the_reason():
    r = gradcheck(F.recip, torch.rand(6) + 0.5, against=lambda a: a[:3])
    assert r.verdict == "fail"
    assert "shape (3,)" in r.explanation
