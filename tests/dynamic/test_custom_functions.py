"""Issue 17: custom Functions, hooks, in-place forwards and scalar hyper-parameters, each from a
minimal reproduction (targets/custom.py), checked through the in-process API (and a few
through the isolated worker and the CLI)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

torch = pytest.importorskip("torch")

import custom as C
from conftest import TARGETS, target

from gradlint.dynamic.text import format_text
from gradlint.dynamic import gradcheck
from gradlint.dynamic.observe import display_path
from gradlint.dynamic.worker import run_check

SOURCE = (TARGETS / "custom.py").read_text().splitlines()


def line(name: str) -> str:
    """`path:N` of the line marked `# LINE:name`, the path as reports show it (relative to
    the working directory when inside it)."""
    n = next(i for i, text in enumerate(SOURCE, 1) if text.endswith(f"# LINE:{name}"))
    return f"{display_path(str(TARGETS / 'custom.py'))}:{n}"


def by_name(report):
    return {i.name: i for i in report.inputs}


# -- 1. a cold check imports neither torch._dynamo nor sympy ----------------------------------------


def test_a_cold_check_does_not_import_dynamo_or_sympy():
    """The first dispatch mode a process enters used to import torch._dynamo (sympy, fx), and
    autograd.grad with grad_outputs imports symbolic_shapes: 1.5-3 s of every CLI call."""
    code = ("import sys, torch\n"
            f"sys.path.insert(0, {str(TARGETS)!r})\n"
            "import custom\n"
            "from gradlint.dynamic.api import gradcheck\n"
            "r = gradcheck(custom.Float32Inside, torch.randn(3, 4))\n"
            "assert r.verdict == 'pass', r.explanation\n"
            "assert 'float32' in r.explanation  # the dispatch mode did observe the cast\n"
            "heavy = [m for m in ('torch._dynamo', 'sympy', 'torch.fx.experimental.symbolic_shapes') if m in sys.modules]\n"
            "assert not heavy, heavy\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, check=False)
    assert out.returncode == 0, out.stdout + out.stderr


# -- 2. hooks --------------------------------------------------------------------------------------


def test_a_forward_with_a_hook_is_probed_and_the_hook_named():
    r = gradcheck(C.reversal_hook)  # inputs inferred: probing needs grad for register_hook
    assert r.inputs_source == "probed"
    assert r.verdict == "fail"
    note = r.inputs[0].note
    assert "autograd = -1 x finite differences" in note
    assert f"registers a gradient hook ({line('hook')})" in note


def test_a_scaling_hook_with_explicit_inputs_says_its_factor():
    r = gradcheck(C.half_gradient_hook, torch.randn(5))
    assert r.verdict == "fail" and "autograd = 0.5 x finite differences" in r.inputs[0].note
    assert "gradient hook" in r.explanation


# -- 3. in-place forwards ------------------------------------------------------------------------------


def test_a_function_writing_its_input_without_mark_dirty_is_reported_as_such():
    r = gradcheck(C.Doubler, torch.randn(6))
    assert r.verdict == "fail"
    assert r.error["kind"] == "inplace"
    assert f"writes its input x in place ({line('doubler')}) without ctx.mark_dirty(x)" in r.explanation
    assert "constant factor" not in r.explanation  # the backward is not blamed
    assert r.inputs[0].status == "ok"  # checked on fresh copies, the gradient itself is right


def test_mark_dirty_done_right_passes():
    r = gradcheck(C.DirtyDoubler, torch.randn(6))
    assert r.verdict == "pass", r.explanation
    assert "in place" in r.explanation and "fresh copy" in r.explanation


def test_a_forward_that_rescales_an_argument_each_call_is_checked_on_copies():
    x, y = torch.randn(4), torch.randn(4)
    y0 = y.clone()
    r = gradcheck(C.scales_its_second_argument, x, y)
    assert r.verdict == "pass", r.explanation
    assert "writes its argument y in place" in r.explanation
    assert torch.equal(y, y0), "the caller's tensor is not touched"


def test_a_stateful_forward_is_inconclusive_not_blamed_on_the_backward():
    r = gradcheck(C.stateful, torch.randn(5))
    assert r.verdict == "inconclusive"
    assert "not repeatable" in r.explanation and "kink" not in r.explanation


# -- 4. a None gradient from a backward, and constants ------------------------------------------------


def test_a_none_gradient_is_blamed_on_the_backward_with_its_line():
    r = gradcheck(C.FilterBank, torch.randn(3, 4), torch.randn(4, 5))
    assert r.verdict == "fail"
    bank = by_name(r)["bank"]
    assert bank.status == "mismatch"
    assert f"backward of the autograd.Function FilterBank returns None as the gradient of its input `bank` ({line('filterbank')})" in bank.note
    assert "not a cut graph" in bank.note and "--constant bank" in bank.note
    assert ".detach()" not in bank.note


def test_a_detached_input_is_still_called_a_cut_graph():
    r = gradcheck(lambda x, y: (x * y.detach()).sum(), torch.randn(3), torch.randn(3))
    assert "graph is cut" in by_name(r)["y"].note


def test_constant_leaves_an_argument_out():
    r = gradcheck(C.FilterBank, torch.randn(3, 4), torch.randn(4, 5), constants=["bank"])
    assert r.verdict == "pass", r.explanation
    assert by_name(r)["bank"].status == "constant"
    assert by_name(r)["x"].status == "ok"


def test_constant_by_position_and_unknown_names():
    assert gradcheck(C.FilterBank, torch.randn(3, 4), torch.randn(4, 5), constants=[1]).verdict == "pass"
    r = gradcheck(C.FilterBank, torch.randn(3, 4), torch.randn(4, 5), constants=["weights"])
    assert r.verdict == "error" and r.error["kind"] == "usage"
    assert "weights" in r.explanation and "x, bank" in r.explanation


def test_constant_from_the_command_line(capsys):
    from gradlint.dynamic import cli

    out = subprocess.run([sys.executable, "-m", "gradlint.dynamic", target("FilterBank", "custom"),
                          "--inputs", "torch.randn(3, 4), torch.randn(4, 5)", "--constant", "bank",
                          "--output-format", "json"], capture_output=True, text=True, timeout=300, check=False)
    data = json.loads(out.stdout)
    assert out.returncode == 0, data["explanation"]
    assert [i["status"] for i in data["inputs"]] == ["ok", "constant"]
    assert cli  # imported for the parser's sake: --constant is documented in its help
    parser = __import__("argparse").ArgumentParser()
    cli.add_arguments(parser)
    assert parser.parse_args(["t.py::f", "--constant", "a,b", "--constant", "c"]).constant == ["a,b", "c"]


# -- 5. numbers kept on ctx are not probed as tensors -----------------------------------------------


def test_a_coefficient_kept_on_ctx_is_probed_as_a_number():
    r = gradcheck(C.ReversalFunction)
    assert r.inputs_expr.endswith(", 0.7")
    assert [i.name for i in r.inputs] == ["x"]  # alpha is not an input of the check
    assert "disconnected" not in r.explanation
    assert "the factor is -alpha (= 0.7)" in r.inputs[0].note


def test_a_threshold_unpacked_in_setup_context_is_a_number():
    r = gradcheck(C.SoftThreshold)
    assert r.verdict == "pass", r.explanation
    assert "lambd = 0.7" in r.explanation


# -- 6. where a backward raised, setup_context misuse, patterns ---------------------------------------


def test_a_backward_that_raises_says_where():
    r = gradcheck(C.Indexes, torch.randn(3))
    assert r.verdict == "fail"
    assert "IndexError" in r.explanation and f"(at {line('indexes')}, in backward)" in r.explanation


def test_a_backward_with_too_few_gradients_says_why():
    r = gradcheck(C.TooFewGradients, torch.randn(3), 2.0)
    assert r.verdict == "fail"
    assert f"TooFewGradients.backward ({line('toofew')}) returns 1 gradient, but apply was given 2 inputs (x, scale)" in r.explanation
    assert "None for an input that gets no gradient" in r.explanation


def test_setup_context_with_ctx_in_forward_is_named():
    for r in (gradcheck(C.KeepsCtx), gradcheck(C.KeepsCtx, torch.randn(3))):
        assert r.verdict == "error" and r.error["kind"] == "target"
        assert "defines setup_context" in r.explanation and "still takes ctx" in r.explanation


def test_a_wrong_sparsemax_backward_is_placed_on_the_support():
    z = torch.randn(6, 10, generator=torch.Generator().manual_seed(1)) * 2
    r = gradcheck(C.SparsemaxWrongMean, z)
    assert r.verdict == "fail"
    note = r.inputs[0].note
    assert "exactly where the output is nonzero" in note and "the support" in note
    assert ">=" not in note  # no global value threshold claimed


def test_a_per_row_pattern_is_not_reported_as_a_global_threshold():
    x = torch.randn(6, 12, generator=torch.Generator().manual_seed(0)) + 3 * torch.arange(6.0).reshape(6, 1)
    r = gradcheck(C.SquareTopThreeWrong, x)
    note = r.inputs[0].note
    assert "within each row the mismatching elements are the largest values of x" in note
    assert "every mismatching element has" not in note


def test_a_global_threshold_is_still_reported_and_confirmed():
    import functions as F

    class GtTwo(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return torch.nn.functional.softplus(x)

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            s = torch.sigmoid(x)
            return g * torch.where(x > 2, torch.ones_like(s), s)

    r = gradcheck(GtTwo, torch.randn(24, 24, generator=torch.Generator().manual_seed(0)) * 2)
    assert "every mismatching element has x >= 2" in r.inputs[0].note
    assert "confirmed on" in r.inputs[0].note
    assert F  # the other targets stay importable alongside


# -- 7. kinks in the verdict's own words -----------------------------------------------------------------


def test_a_kink_at_one_element_is_named_in_the_verdict():
    r = gradcheck(C.relu_sum, torch.tensor([0.0, 1.0, -1.0, 2.0]))
    assert r.verdict == "pass"
    assert "except at x[0] = 0, which sits exactly on a kink" in r.explanation
    assert "not vouched for" in r.explanation
    (k,) = r.inputs[0].kinks
    assert k.index == [0] and k.status == "kink"
    assert "on a kink, not vouched for" in format_text(r)


def test_kinks_in_a_larger_input_are_found_and_the_rest_vouched_for():
    x = torch.randn(40, generator=torch.Generator().manual_seed(3))
    x[[5, 17]] = 0.0
    r = gradcheck(lambda t: t.abs().sum(), x)
    assert r.verdict == "pass"
    assert sorted(k.index[0] for k in r.inputs[0].kinks) == [5, 17]
    assert "except at t[5] = 0, t[17] = 0, which sit exactly on a kink" in r.explanation


def test_every_element_on_a_kink_is_inconclusive():
    r = gradcheck(C.relu_sum, torch.zeros(6))
    assert r.verdict == "inconclusive" and "every element sits on a kink" in r.explanation


# -- through the isolated worker -----------------------------------------------------------------------------


def test_the_isolated_check_reports_the_same(tmp_path):
    r = run_check({"target": target("FilterBank", "custom"), "inputs": "torch.randn(3, 4), torch.randn(4, 5)",
                   "constants": ["bank"], "cwd": str(tmp_path)}, timeout=120)
    assert r["verdict"] == "pass", r["explanation"]
    assert [i["status"] for i in r["inputs"]] == ["ok", "constant"]
    r = run_check({"target": target("relu_sum", "custom"), "inputs": "torch.tensor([0., 1., -1., 2.])",
                   "cwd": os.getcwd()}, timeout=120)
    assert r["verdict"] == "pass" and r["inputs"][0]["kinks"][0]["index"] == [0]


def test_a_straight_through_estimator_is_recognised_as_a_surrogate():
    r = gradcheck(C.SignStraightThrough, torch.randn(4, 6))
    assert r.verdict == "fail"
    assert "finite differences are 0 at every mismatching element" in r.inputs[0].note
    assert "straight-through estimator" in r.inputs[0].note
