"""The directional comparison on synthetic lines g(t), where the truth is known exactly."""

from __future__ import annotations

import math
import random

from gradlint.dynamic.numerics import Line, classify

EPS64 = 2.0 ** -52
EPS32 = 2.0 ** -23
S64 = EPS64 ** (1 / 3) / 2
S32 = EPS32 ** (1 / 3) / 2


def run(g, a, s0=S64, sigma=EPS64, noise=0.0, seed=0):
    rng = random.Random(seed)
    line = Line(lambda t: g(t) + (rng.gauss(0.0, noise) if noise else 0.0), 0.0)
    return classify(line, s0, a, lambda: sigma, 0.0, ref=abs(a) or 1.0)


def test_smooth_function_with_the_right_derivative_agrees_to_round_off():
    oc = run(lambda t: math.sin(1 + t) - math.sin(1), math.cos(1))
    assert oc.status == "agree"
    assert oc.ratio < 1
    assert oc.resolution < 1e-8  # float64 resolves far below any real bug


def test_a_derivative_off_by_a_tenth_of_a_percent_is_a_mismatch():
    oc = run(lambda t: math.sin(1 + t) - math.sin(1), 1.001 * math.cos(1))
    assert oc.status == "mismatch"
    assert oc.ratio > 1e3
    assert abs(oc.rel_error - 1e-3) < 1e-5


def test_float32_rounding_noise_never_fails_a_right_derivative_and_catches_a_5_percent_error():
    g = lambda t: 3.0 * t + 0.5 * t * t
    sigma = EPS32 * 40  # a priori rounding of u·f in float32
    right = [run(g, 3.0, S32, sigma, noise=sigma, seed=k).status for k in range(300)]
    assert "mismatch" not in right
    wrong = [run(g, 3.15, S32, sigma, noise=sigma, seed=k).status for k in range(50)]
    assert wrong.count("mismatch") == 50


def test_a_kink_exactly_at_the_point_is_not_a_mismatch():
    # relu at 0 with autograd's subgradient 0: one-sided slopes 0 and 1
    oc = run(lambda t: max(t, 0.0), 0.0)
    assert oc.status != "mismatch"
    assert oc.kink_at_point


def test_a_kink_inside_the_step_is_avoided_by_a_smaller_step():
    kink = 0.3 * S64  # inside the first stencil, outside the next one (s/8)
    oc = run(lambda t: 2.0 * t + 5.0 * max(t - kink, 0.0), 2.0)
    assert oc.status == "agree"
    assert len(oc.levels) > 1 and oc.level.s < oc.levels[0].s


def test_many_kinks_inside_the_stencil_do_not_produce_false_mismatches():
    statuses = []
    for seed in range(200):
        rng = random.Random(seed)
        kinks = [(rng.uniform(-2.2, 2.2) * S32, rng.gauss(0.0, 1.0)) for _ in range(40)]
        slope0 = 1.0 + sum(j for t, j in kinks if t < 0)  # slope of the piece containing t = 0
        base = sum(j * max(-t, 0.0) for t, j in kinks)

        def g(t, kinks=kinks, base=base):
            return t + sum(j * max(t - tk, 0.0) for tk, j in kinks) - base

        statuses.append(run(g, slope0, S32, EPS32).status)
    assert "mismatch" not in statuses


def test_a_line_that_is_nowhere_finite_is_reported_as_such():
    oc = run(lambda t: math.nan, 1.0)
    assert oc.status == "nonfinite"
    assert math.isinf(oc.ratio)
