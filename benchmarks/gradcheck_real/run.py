"""gradlint gradcheck on real custom-gradient code, next to torch.autograd.gradcheck.

Every case is a custom autograd.Function, hook layer or straight-through estimator taken from
a public repository or bug thread (the modules of this folder name their sources), with what
is known to be true of it:

  correct   the backward is the derivative                                 -> pass
  wrong     the backward is not the derivative, by mistake                 -> fail
  design    the backward is not the derivative on purpose (gradient
            reversal or scaling, straight-through estimators, surrogates)  -> fail, with the
            factor / hook / surrogate named
  inplace   the forward writes its input without ctx.mark_dirty            -> fail, named
  broken    the Function cannot work (legacy API)                          -> fail or error

For each case: gradlint with the inputs given explicitly (the API; `constants` where the
thread's own gradcheck call left an argument without requires_grad), gradlint with inputs
inferred (nothing given), and torch.autograd.gradcheck in slow and fast mode on the same
explicit inputs in float64. A verdict is right when it is the one expected; for gradlint an
explanation must also contain the phrase that names the cause (`cause` below).

    python -m benchmarks.gradcheck_real.run              # markdown table on stdout
"""

from __future__ import annotations

import importlib
import inspect
import statistics
import sys
import time
import warnings
from dataclasses import dataclass

import torch
from torch.autograd.gradcheck import GradcheckError

from gradlint.dynamic import gradcheck
from gradlint.dynamic.inputs import evaluate_expression

EXPECTED = {"correct": ("pass",), "wrong": ("fail",), "design": ("fail",), "inplace": ("fail",),
            "broken": ("fail", "error")}


@dataclass
class Case:
    module: str
    name: str
    truth: str
    inputs: str
    cause: str = ""  # a phrase gradlint's explanation must contain (explicit inputs)
    constants: tuple = ()
    label: str = ""  # when one target appears twice (different inputs)

    @property
    def title(self) -> str:
        return f"{self.module}.{self.name}" + (f" ({self.label})" if self.label else "")


CASES = [
    Case("activations", "SwishAutoFn", "correct", "torch.randn(8, 16)"),
    Case("activations", "MishAutoFn", "correct", "torch.randn(8, 16)"),
    Case("activations", "HardSigmoidAutoFn", "correct", "torch.randn(8, 16) * 2"),
    Case("activations", "HardSwishAutoFn", "correct", "torch.randn(8, 16) * 2"),
    Case("activations", "HardMishAutoFn", "correct", "torch.randn(8, 16) * 2"),
    Case("activations", "SwishImplementation", "correct", "torch.randn(8, 16)"),
    Case("sparse", "SparsemaxFunction", "correct", "torch.randn(6, 10), -1"),
    Case("sparse", "Tsallis15Function", "correct", "torch.randn(6, 10), -1"),
    Case("sparse", "Sparsemax3d", "wrong", "torch.randn(4, 1, 5), -1", label="3-d input, entmax#13"),
    Case("reversal", "ReverseLayerF", "design", "torch.randn(4, 8), 0.5", "the factor is -alpha"),
    Case("reversal", "GradMultiply", "design", "torch.randn(4, 8), 0.1", "the factor is scale"),
    Case("reversal", "ScaleGradient", "design", "torch.randn(4, 8), 0.25", "the factor is scale"),
    Case("reversal", "GradientReversal", "design", "torch.randn(4, 8)", "autograd = -1 x"),
    Case("reversal", "GradientReversalLayer", "design", "torch.randn(4, 8)", "gradient hook"),
    Case("reversal", "LambdaLayer", "design", "torch.randn(4, 8)", "gradient hook"),
    Case("reversal", "GradReverse", "broken", "torch.randn(4, 8)", "in backward"),
    Case("ste", "STEFunc", "design", "torch.randn(4, 8)", "straight-through"),
    Case("ste", "STEFunction", "design", "torch.randn(4, 8)", "straight-through"),
    Case("ste", "LowerBoundFunction", "design", "torch.randn(4, 8), torch.tensor([0.1])", "surrogate",
         constants=("bound",)),
    Case("ste", "round_straight_through", "design", "torch.randn(4, 8) * 3", "straight-through"),
    Case("threads", "ISRLU", "wrong", "torch.randn(20, 20), 1.0", "is wrong"),
    Case("threads", "CustomOp", "inplace", "torch.randn(4, 8)", "without ctx.mark_dirty(x)"),
    Case("threads", "InPlaceAdd", "inplace", "torch.randn(2), torch.randn(1)", "without ctx.mark_dirty(a)"),
    Case("threads", "ScaleFunc", "wrong", "torch.randn(3, 7), torch.tensor([1e-3])",
         "invalid gradient at index 1", label="scale of shape (1,), as in the thread"),
    Case("threads", "ScaleFunc", "wrong", "torch.randn(3, 7), torch.tensor(1e-3)", "= 1/21",
         label="0-d scale"),
    Case("tutorials", "LegendrePolynomial3", "correct", "torch.randn(50)"),
    Case("tutorials", "LinearFunction", "correct", "torch.randn(4, 3), torch.randn(5, 3), torch.randn(5)"),
    Case("tutorials", "MulConstant", "correct", "torch.randn(4, 3), 2.5"),
]


def load(case: Case):
    obj = getattr(importlib.import_module(f"benchmarks.gradcheck_real.{case.module}"), case.name)
    if inspect.isclass(obj) and issubclass(obj, torch.nn.Module):
        return obj, obj()  # gradlint instantiates the class itself; torch gets an instance
    if inspect.isclass(obj) and issubclass(obj, torch.autograd.Function):
        return obj, obj.apply
    return obj, obj


def torch_inputs(case: Case, args: list) -> tuple:
    names = list(inspect.signature(load(case)[0].forward if inspect.isclass(load(case)[0])
                                   else load(case)[0]).parameters)
    if names and names[0] in ("ctx", "self"):
        names = names[1:]
    out = []
    for i, a in enumerate(args):
        fixed = (names[i] if i < len(names) else str(i)) in case.constants
        if isinstance(a, torch.Tensor) and a.is_floating_point():
            a = a.detach().double().requires_grad_(not fixed)
        out.append(a)
    return tuple(out)


def run_torch(case: Case, fast: bool) -> tuple[str, float, str]:
    torch.manual_seed(0)
    args = torch_inputs(case, evaluate_expression(case.inputs))
    fn = load(case)[1]
    t = time.perf_counter()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            torch.autograd.gradcheck(fn, args, fast_mode=fast)
        verdict, why = "pass", ""
    except GradcheckError as e:
        verdict, why = "fail", str(e).splitlines()[0]
    except Exception as e:  # noqa: BLE001 - what torch says is the result
        verdict, why = "error", f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"
    return verdict, time.perf_counter() - t, why


def run_ours(case: Case, explicit: bool):
    torch.manual_seed(0)
    target = load(case)[0]
    args = evaluate_expression(case.inputs) if explicit else []
    t = time.perf_counter()
    report = gradcheck(target, *args, constants=case.constants if explicit else ())
    return report, time.perf_counter() - t


def warm_ms(fn, repeats: int = 15) -> float:
    """Best of `repeats` warm runs: on a shared machine the scheduler adds 1-10 ms to single
    runs at random, and the minimum is what the code itself costs."""
    fn()
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return 1000 * min(times)


def main() -> int:
    torch.set_num_threads(1)
    print(f"torch {torch.__version__}, {len(CASES)} cases, one torch thread\n")
    print("| case | truth | gradlint explicit | cause named | gradlint inferred | torch slow | torch fast "
          "| gradlint ms | fast ms | ratio |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    right = {"ours": 0, "named": 0, "inferred": 0, "slow": 0, "fast": 0}
    ratios = []
    details = []
    for case in CASES:
        want = EXPECTED[case.truth]
        ours, _ = run_ours(case, True)
        inferred, _ = run_ours(case, False)
        slow, _, slow_why = run_torch(case, False)
        fast, _, fast_why = run_torch(case, True)
        named = case.cause.lower() in ours.explanation.lower() if case.cause else ours.verdict in want
        ms = warm_ms(lambda case=case: run_ours(case, True))
        fms = warm_ms(lambda case=case: run_torch(case, True))
        ratios.append((ms / fms if fms else float("inf"), case.title, ours.verdict == fast))
        right["ours"] += ours.verdict in want
        right["named"] += bool(named) and ours.verdict in want
        right["inferred"] += inferred.verdict in want
        right["slow"] += slow in want
        right["fast"] += fast in want

        def mark(v, want=want):
            return f"{v}" + ("" if v in want else " ✗")

        print(f"| {case.title} | {case.truth} | {mark(ours.verdict)} | {'yes' if named else 'NO'} | "
              f"{mark(inferred.verdict)} | {mark(slow)} | {mark(fast)} | {ms:.2f} | {fms:.2f} | {ms / fms:.2f}x |",
              flush=True)
        details.append((case, ours, inferred, slow_why, fast_why))
    n = len(CASES)
    print(f"\nRight verdicts: gradlint explicit {right['ours']}/{n} (cause named in {right['named']}), "
          f"gradlint inferred {right['inferred']}/{n}, torch slow {right['slow']}/{n}, torch fast {right['fast']}/{n}.")
    worst = max(ratios)
    same = max(r for r in ratios if r[2])
    print(f"Warm check time, gradlint / torch fast mode: median {statistics.median(r for r, _, _ in ratios):.2f}x, "
          f"worst {worst[0]:.2f}x ({worst[1]}); worst where both gave the same verdict {same[0]:.2f}x "
          f"({same[1]}).\n")
    print("## What each tool said (first sentence)\n")
    for case, ours, inferred, slow_why, _fast_why in details:
        first = ours.explanation.split(". ")[0][:300]
        print(f"- **{case.title}** ({case.truth}): gradlint: {ours.verdict} — {first}."
              + (f" Inferred inputs: `{inferred.inputs_expr}` → {inferred.verdict}." if inferred.inputs_expr
                 else f" Inferred: {inferred.verdict} — {inferred.explanation[:160]}")
              + (f" torch: {slow_why[:160]}" if slow_why else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
