"""Run the numerics on a Problem and turn what they find into a GradcheckReport.

Order of work: one forward with autograd, one vector-Jacobian product per direction (plus one
repeat, to see nondeterminism), then for every variable and direction a five-point stencil of
forwards without autograd. Only a mismatch costs more (localisation), so a passing check of a
96x96 function is a dozen forwards, not 2·9216.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import torch

from . import blame, explain, patterns
from .against import AgainstError, align_gradients, ulp_table
from .floats import EPS, dtype_name, power_of_two, to_float32, ulp
from .floats import eps as machine_eps
from .localise import Element, Localisation, check_element, localise, unravel
from .numerics import NOISE_R, RESOLVE, SAFETY, Line, Outcome, classify
from .problem import Problem, Var, all_finite, changed_norm
from .report import (
    FAIL,
    INCONCLUSIVE,
    PASS,
    ElementReport,
    GradcheckReport,
    InputReport,
    error_report,
)

RESOLUTION_LIMIT = RESOLVE  # a pass needs every variable resolved to 5% even where kinks blur it
SAMPLES = 8  # single elements checked when random directions are blurred by kinks
UNREPEATABLE = ("the forward is not repeatable: two evaluations at the same inputs differ (state that "
                "changes between calls?), so finite differences cannot decide, and a mismatch would say "
                "nothing about the backward")
KINKS_SHOWN = 5  # kinked elements listed in the report
KINK_BUDGET = 48  # stencils spent isolating kinks that sit exactly at the input
LOW_PRECISION = ("float32", "float16", "bfloat16")


class BackwardError(Exception):
    """The target's backward raised: its gradient is broken, whatever the forward does."""


@dataclass
class VarResult:
    var: Var
    grads: list[torch.Tensor | None]
    leaf: torch.Tensor | None = None  # the graph forward's leaf for var (whom blame looks for)
    outcomes: list[Outcome] = field(default_factory=list)
    directions: list[torch.Tensor] = field(default_factory=list)
    priors: list[dict[str, float]] = field(default_factory=list)
    status: str = "ok"
    nonfinite: dict[str, object] | None = None
    localisation: Localisation | None = None
    check_element: Callable[[int], Element] | None = None  # flat index -> element, as localisation checks
    hints: list[str] = field(default_factory=list)  # patterns of the mismatching elements (patterns.py)
    kinks: list[Element] = field(default_factory=list)  # elements sitting exactly on a kink
    vouched: list[Outcome] = field(default_factory=list)  # the smooth blocks that decided the rest
    sampled: Localisation | None = None  # single elements checked when directions were blurred
    note: str | None = None

    @property
    def disconnected(self) -> bool:
        return all(g is None or not bool(g.any()) for g in self.grads)


class Checker:
    def __init__(self, problem: Problem, *, dtype: torch.dtype, directions: int | None = None, seed: int = 0,
                 target_dtype: str | None = None, against=None, name: str = "", kind: str = "",
                 notes: list[str] | tuple[str, ...] = ()) -> None:
        self.problem = problem
        self.dtype = dtype
        # One signed direction per input resolves ~1e-9 in float64, so a bug is missed only if
        # a Gaussian lands within ~1e-5 of its spread; float32's floor is ~1e-3, so take three.
        if directions is None:
            directions = 1 if dtype == torch.float64 else 3
        self.directions = max(1, int(directions))
        self.seed = seed
        self.target_dtype = target_dtype
        self.against = against
        self.name = name
        self.kind = kind
        self.gen = torch.Generator().manual_seed(seed)
        self.evaluations = 0
        self.notes: list[str] = list(notes)  # the caller's (how the inputs were made) come first
        self.eps = EPS["float64"]  # of the lowest precision on the differentiable path (run())
        self.s0 = 0.0  # half the largest finite-difference offset, per unit of an input's scale
        self.f0: list[torch.Tensor] = []  # outputs at the base point
        self.u0: list[torch.Tensor] = []  # the first output weighting
        self.repeatable: bool | None = None  # learnt once, when something looks wrong

    # -- the check ---------------------------------------------------------------------------

    def run(self) -> GradcheckReport:
        t_start = time.perf_counter()
        p = self.problem
        report = GradcheckReport(verdict=PASS, explanation="", target=self.name, kind=self.kind,
                                 dtype=dtype_name(self.dtype), target_dtype=self.target_dtype,
                                 seed=self.seed)
        if p.unknown_constants:
            known = [n for n in p.names] + [v.name for v in p.vars if v.kind == "parameter"]
            return self._finish(error_report(
                "usage", f"--constant {', '.join(p.unknown_constants)}: no such argument"
                + (f" (the arguments are {', '.join(known)})" if known else " (the target takes no arguments)")
                + ".", target=self.name, kind=self.kind), t_start)
        if not p.vars:
            held = [f"{n} ({d})" for n, d, _ in p.constants] + [f"{n} (marked constant)" for n, _, _ in p.fixed]
            return self._finish(error_report(
                "inputs", "Nothing to differentiate: the target has no floating-point inputs"
                + (f" (only {', '.join(held)})" if held else "")
                + (" and no trainable parameters." if p.module is not None else "."),
                target=self.name, kind=self.kind), t_start)
        outs, leaves = p.graph_forward()
        self.evaluations += 1
        if not outs:
            return self._finish(error_report(
                "outputs", "The target returns no floating-point tensor, so there is no gradient to check.",
                target=self.name, kind=self.kind), t_start)
        bad = _nonfinite_summary(outs)
        if bad:
            report.verdict = INCONCLUSIVE
            report.notes.append(f"The output is not finite at these inputs ({bad}); choose inputs "
                                "where it is, e.g. positive values for log or sqrt.")
            report.inputs = [self._input_shell(v) for v in p.vars]
            return self._finish(report, t_start)
        self.eps = self._effective_eps(outs)
        self.s0 = self.eps ** (1.0 / 3.0) / 2  # largest offset 2s = cbrt(eps), per unit of scale
        if p.reseed:
            self.notes.append("The target draws random numbers (dropout, torch.rand...): every "
                              "evaluation started from the same random state, so the check is for "
                              "one fixed draw.")
        us = self._output_weights(outs)
        try:
            grads = [self._vjp(outs, leaves, u) for u in us]
            repeat = self._vjp(outs, leaves, us[0])
        except BackwardError as e:
            report.verdict = FAIL
            report.error = {"kind": "backward",
                            "message": blame.backward_error(e.__cause__ or e, outs,
                                                            lambda: self._vjp(outs, leaves, us[0]))}
            report.inputs = [self._input_shell(v) for v in p.vars]
            return self._finish(report, t_start)
        # The graph forward's outputs are the base point of every stencil: no extra forward.
        f0 = [o.detach() for o in outs]
        self.f0, self.u0 = f0, us[0]
        results = [self._check_var(var, us, [g[i] for g in grads], leaves[i]) for i, var in enumerate(p.vars)]
        unrepeatable = any(r.status in ("nonsmooth", "mismatch") for r in results) and not self._is_repeatable()
        if unrepeatable:
            for r in results:
                if r.status in ("nonsmooth", "mismatch"):
                    r.status, r.kinks, r.localisation, r.vouched = "nonsmooth", [], None, []
                    r.note = UNREPEATABLE
        self._report_inplace(report)
        for r in results:
            if r.status == "mismatch" and r.disconnected:
                why = blame.missing_gradient(outs, r.leaf, r.var.name, lambda: self._vjp(outs, leaves, us[0]))
                if why:
                    r.note = why
        t_loc = time.perf_counter()
        for r in results:
            if r.status == "mismatch" and r.localisation is None:
                self._localise(r, us)
                self._confirm(r, us)
            if r.status == "mismatch":
                self._patterns(r)
        report.timings["localise"] = time.perf_counter() - t_loc
        report.nondeterministic = self._nondeterminism(results, grads[0], repeat)
        report.inputs = [self._input_report(r) for r in results]
        report.inputs += [InputReport(name=name, kind="input", shape=shape, dtype=dtype,
                                      status="not_differentiable",
                                      note="not a floating-point tensor: passed through unchanged")
                          for name, dtype, shape in p.constants]
        report.inputs += [InputReport(name=name, kind="input", shape=shape, dtype=dtype, status="constant",
                                      note="marked constant: passed through, its gradient not checked")
                          for name, dtype, shape in p.fixed]
        report.float32 = self._float32_info(results, f0, grads[0])
        if self.against is not None:
            report.against = self._check_against(outs, leaves, f0)
        report.verdict = self._verdict(results, report)
        if unrepeatable and report.verdict == FAIL and not (report.error or report.against):
            report.verdict = INCONCLUSIVE
        return self._finish(report, t_start)

    def _report_inplace(self, report: GradcheckReport) -> None:
        """A forward that writes its arguments in place was checked on fresh copies; for an
        autograd.Function that does so without ctx.mark_dirty that is a bug of its own."""
        for w in self.problem.inplace:
            where = f" ({w.where})" if w.where else ""
            if self.kind == "autograd.Function" and not w.returned:
                report.error = {"kind": "inplace", "message": (
                    f"The forward of {self.name or 'the Function'} writes its input {w.name} in place{where} "
                    f"without ctx.mark_dirty({w.name}): the caller's tensor changes under it, and "
                    f"autograd does not know. Call ctx.mark_dirty({w.name}) and return it, or compute "
                    f"out of place (e.g. `{w.name} * 2` instead of `{w.name} *= 2`). The gradients were "
                    "checked on fresh copies of the inputs.")}
            else:
                self.notes.append(f"The forward writes its argument {w.name} in place{where}: every "
                                  "evaluation was given a fresh copy, so finite differences saw the same "
                                  "function each time.")

    def _finish(self, report: GradcheckReport, t_start: float) -> GradcheckReport:
        report.notes = self.notes + report.notes
        report.timings["check"] = time.perf_counter() - t_start
        report.evaluations = self.evaluations
        report.explanation = explain.explain(report)
        self.problem.restore()
        return report

    # -- pieces --------------------------------------------------------------------------------

    def _effective_eps(self, outs: list[torch.Tensor]) -> float:
        """Rounding is as coarse as the lowest precision the differentiable path computes in."""
        eps = machine_eps(self.dtype)
        seen = {dtype_name(o.dtype): "output" for o in outs}
        seen.update(self.problem.observed_dtypes)
        for name, where in seen.items():
            if EPS.get(name, 0.0) > eps:
                eps = EPS[name]
                if name != dtype_name(self.dtype):
                    self.notes.append(f"The target computes in {name} ({where}) although the check "
                                      f"runs in {dtype_name(self.dtype)}: the tolerances use {name} "
                                      "rounding.")
        return eps

    def _output_weights(self, outs: list[torch.Tensor]) -> list[list[torch.Tensor]]:
        """u: signed Gaussian weights over the outputs (one draw per direction); for a scalar
        output u = 1, so the values shown are the gradient itself."""
        if sum(o.numel() for o in outs) == 1:
            return [[torch.ones(o.shape, dtype=torch.float64) for o in outs]] * self.directions
        return [[torch.randn(o.shape, generator=self.gen, dtype=torch.float32).double() for o in outs]
                for _ in range(self.directions)]

    def _vjp(self, outs: list[torch.Tensor], leaves: list[torch.Tensor],
             u: list[torch.Tensor]) -> list[torch.Tensor | None]:
        pairs = [(o, w.to(o.dtype)) for o, w in zip(outs, u) if o.requires_grad]
        if not pairs:
            return [None] * len(leaves)
        try:
            # The weighted sum as one scalar, not grad_outputs=u: any tensor in grad_outputs makes
            # torch import torch.fx.experimental.symbolic_shapes (sympy, 1-2 s) the first time,
            # which was most of a cold check. Its backward hands each output exactly w.
            total = sum((o * w).sum() for o, w in pairs)
            return list(torch.autograd.grad(total, leaves, retain_graph=True, allow_unused=True))
        except Exception as e:
            raise BackwardError(f"The backward raised {type(e).__name__}: {e}") from e

    def _is_repeatable(self) -> bool:
        if self.repeatable is None:
            self.repeatable = self._repeatable(self.f0, self.u0)
        return self.repeatable

    def _repeatable(self, f0: list[torch.Tensor], u: list[torch.Tensor]) -> bool:
        """Two forwards at the same point agree (up to the rounding of grad vs no-grad kernels)."""
        again = self.problem.base_outputs()
        self.evaluations += 1
        if all(torch.equal(a, b) for a, b in zip(again, f0)):
            return True
        diff = sum(float(torch.dot(w.reshape(-1), (a - b).reshape(-1).double()))
                   for w, a, b in zip(u, again, f0))
        norm = math.sqrt(sum(float((w * b.double()).pow(2).sum()) for w, b in zip(u, f0)))
        return abs(diff) <= 64 * self.eps * max(norm, 1e-300)

    def _direction(self, var: Var) -> torch.Tensor:
        # drawn in float32: float64 randn is ~9x slower, and a direction needs no more precision
        v = torch.randn(var.base.shape, generator=self.gen, dtype=torch.float32)
        return v.to(var.base.dtype).mul_(var.scale)

    def outcome_along(self, var: Var, u: list[torch.Tensor], v: torch.Tensor, grad: torch.Tensor | None,
                      s0: float, *, ref: float | None = None, prior: dict | None = None,
                      dense: bool = False) -> Outcome:
        """Compare u·J·v = ⟨grad, v⟩ (grad = Jᵀu from autograd) with finite differences along v."""
        vd = v.double()
        gd = torch.zeros_like(vd) if grad is None else grad.detach().double()
        gv = gd * vd
        a = float(gv.sum())
        l1 = float(gv.abs().sum())
        if ref is None:
            ref = float(torch.linalg.vector_norm(gv))
        # rounding x + t·v moves u·f by about eps·‖(Jᵀu)∘x‖ over the elements v moves (0 elsewhere)
        gx = gd * var.base.double()
        if not dense:
            gx = torch.where(vd != 0, gx, 0.0)
        x_in = float(torch.linalg.vector_norm(gx))
        state: dict[str, float] = {}
        f0 = self.f0
        problem = self.problem

        def evaluate(t: float) -> float:
            outs = problem.outputs_at(var, v, t)
            self.evaluations += 1
            if "fnorm" not in state:
                state["fnorm"] = changed_norm(u, outs, f0)
            # u·(f(t) - f(0)) in float64: outputs that did not move contribute exactly 0
            return sum(float(torch.dot(w.reshape(-1), (o.double() - b.double()).reshape(-1)))
                       for w, o, b in zip(u, outs, f0))

        oc = classify(Line(evaluate, 0.0), s0, a, lambda: self.eps * math.hypot(state["fnorm"], x_in),
                      self.eps * l1, ref=ref)
        if prior is not None:
            prior.update(fnorm=state.get("fnorm", 0.0), x_in=x_in, l1=l1, a=a)
        return oc

    def _check_var(self, var: Var, us: list[list[torch.Tensor]],
                   grads: list[torch.Tensor | None], leaf: torch.Tensor | None = None) -> VarResult:
        r = VarResult(var, grads, leaf)
        for g in grads:
            if g is not None and not all_finite(g):
                r.nonfinite = _nonfinite_detail(g)
                r.status = "nonfinite"
                return r
        for k, u in enumerate(us):
            v = self._direction(var)
            prior: dict[str, float] = {}
            r.outcomes.append(self.outcome_along(var, u, v, grads[k], self.s0, prior=prior, dense=True))
            r.directions.append(v)
            r.priors.append(prior)
        statuses = {o.status for o in r.outcomes}
        if "mismatch" in statuses:
            r.status = "mismatch"
            if r.disconnected:
                r.note = ("autograd gives no gradient (None or zero), but the output changes with "
                          f"{var.name}: the graph is cut on the way (.detach(), .item(), .numpy(), "
                          "torch.no_grad, a new tensor built from values)")
        elif statuses & {"rough", "nonfinite", "unconfirmed"}:
            rough = [o for o in r.outcomes if o.status != "agree"]
            kinked = any(lv.rough for o in rough for lv in o.levels)
            if any(o.kink_at_point for o in rough):
                blur = ("not differentiable at this point (one-sided slopes differ: a kink at or "
                        "right next to the input, e.g. relu or abs at 0)")
            elif kinked:
                blur = ("not smooth within the finite-difference step (kinks such as relu, or "
                        "non-finite values nearby)")
            else:
                blur = "a mismatch at one step that a smaller step was too noisy to confirm"
            if not self._is_repeatable():
                r.status, r.note = "nonsmooth", UNREPEATABLE
            elif any(o.kink_at_point for o in rough) and self._isolate_kinks(r, us[0], grads[0]):
                pass  # decided element by element: the kinks named, the rest vouched for
            elif any(o.status != "rough" or not o.agrees or o.resolution > RESOLUTION_LIMIT for o in rough):
                self._sample_elements(r, us[0], grads[0], blur)
            else:
                r.note = f"{blur}; the check still resolved it to {max(o.resolution for o in rough):.1e}"
        elif r.disconnected:
            r.status = "disconnected"
            r.note = "no gradient flows to it and the output does not change with it"
        return r

    def _isolate_kinks(self, r: VarResult, u: list[torch.Tensor], grad: torch.Tensor | None,
                       budget: int = KINK_BUDGET) -> bool:
        """A kink exactly at the input (relu or abs at 0) blurs every direction through it, but
        only the elements on it. Bisect the direction: a block whose stencil is smooth and agrees
        vouches for its elements; a rough one is split, down to single elements. True when that
        decided every element within the budget (then r says which sit on a kink, and whether
        any other is wrong); False leaves r unchanged (many kinks: sample instead)."""
        var = r.var
        g = grad.detach().double() if grad is not None else torch.zeros(var.base.shape, dtype=torch.float64)
        flat_v = r.directions[0].reshape(-1)
        flat_g, flat_x = g.reshape(-1), var.base.reshape(-1)
        vouched: list[Outcome] = []
        found = Localisation()
        stack = [(0, flat_v.numel())]
        while stack:
            lo, hi = stack.pop()
            found.tests += 1
            if found.tests > budget:
                return False
            if hi - lo == 1:
                found.add(check_element(lo, var.base.shape, var.scale, flat_g, flat_x,
                                        lambda d: self.outcome_along(var, u, d, g, self.s0)))
                continue
            d = torch.zeros_like(flat_v)
            d[lo:hi] = flat_v[lo:hi]
            oc = self.outcome_along(var, u, d.reshape(var.base.shape), g, self.s0)
            if oc.status == "agree" and not oc.levels[0].rough:
                vouched.append(oc)
                continue
            mid = (lo + hi) // 2
            stack += [(mid, hi), (lo, mid)]
        if found.mismatched:
            r.status, r.localisation = "mismatch", found
            r.note = "a kink blurs the random direction, but single elements away from it are wrong"
            return True
        vouched += [e.outcome for e in found.agreeing]
        if not vouched:
            r.status = "nonsmooth"
            r.note = ("not differentiable at this point: every element sits on a kink (one-sided slopes "
                      "differ, e.g. relu or abs at 0)")
            r.kinks = found.kinked
            return True
        r.kinks, r.vouched = found.kinked, vouched
        return True

    def _sample_elements(self, r: VarResult, u: list[torch.Tensor], grad: torch.Tensor | None,
                         blur: str, count: int = SAMPLES) -> None:
        """Random directions cross many kinks at once (a relu layer in float32 has hundreds
        within the step); one element crosses few. Check a random sample of single elements."""
        var = r.var
        g = grad.detach().double() if grad is not None else torch.zeros(var.base.shape, dtype=torch.float64)
        flat_g, flat_x = g.reshape(-1), var.base.reshape(-1)
        typical = float(torch.linalg.vector_norm(flat_g)) / math.sqrt(max(var.numel, 1))
        loc = Localisation()
        for j in torch.randperm(var.numel, generator=self.gen)[:count].tolist():
            ref = max(abs(float(flat_g[j])), typical) * var.scale
            loc.add(check_element(j, var.base.shape, var.scale, flat_g, flat_x,
                                  lambda d, ref=ref: self.outcome_along(var, u, d, g, self.s0, ref=ref)))
        r.sampled = loc
        if loc.mismatched:
            r.status, r.localisation = "mismatch", loc
            r.note = f"random directions were not decisive ({blur}), but single elements are wrong"
            return
        # An element with kinks right next to it says nothing either way; it must not veto the
        # others, but at least half of the sample has to be decided.
        undecided = loc.kinked
        if len(loc.agreeing) * 2 >= len(loc.agreeing) + len(undecided) and \
                all(e.outcome.agrees for e in undecided):
            resolution = max((e.outcome.resolution for e in loc.agreeing), default=0.0)
            r.note = (f"random directions were not decisive ({blur}); {len(loc.agreeing)} randomly "
                      f"sampled elements checked one by one agree, to {resolution:.1e}"
                      + (f" ({len(undecided)} more sat next to a kink)" if undecided else ""))
        else:
            r.status = "nonsmooth"
            r.note = blur

    def _localise(self, r: VarResult, us: list[list[torch.Tensor]]) -> None:
        k = max((k for k, o in enumerate(r.outcomes) if o.status == "mismatch"),
                key=lambda k: r.outcomes[k].ratio)
        oc = r.outcomes[k]
        grad = r.grads[k] if r.grads[k] is not None else torch.zeros_like(r.var.base)

        def along(d: torch.Tensor) -> Outcome:
            return self.outcome_along(r.var, us[k], d, grad, oc.level.s)

        r.localisation = localise(r.directions[k], grad, r.var.base, r.var.scale, along)
        flat_g, flat_x = grad.reshape(-1).to(torch.float64), r.var.base.reshape(-1)
        r.check_element = lambda j: check_element(j, r.var.base.shape, r.var.scale, flat_g, flat_x, along)

    def _patterns(self, r: VarResult) -> None:
        """Sentences about where the gradient is wrong, each tested on fresh elements."""
        loc = r.localisation
        if loc is None or r.check_element is None or not loc.mismatched:
            return
        r.hints = patterns.describe(r.var.name, loc.mismatched, loc.agreeing, r.check_element,
                                    r.var.base.reshape(-1), patterns.output_like(self.f0, r.var.base),
                                    tuple(r.var.base.shape), self.gen)

    def _confirm(self, r: VarResult, us: list[list[torch.Tensor]]) -> None:
        """A failure must be reproduced by something independent of the first direction: single
        elements (localisation) or a second random direction. Several relu kinks inside a
        stencil can, rarely, fake a consistent mismatch along one direction; they cannot fake
        it along another direction too."""
        if r.localisation is not None and r.localisation.mismatched:
            return
        v = self._direction(r.var)
        k = next(k for k, o in enumerate(r.outcomes) if o.status == "mismatch")
        oc = self.outcome_along(r.var, us[k], v, r.grads[k], self.s0)
        r.outcomes.append(oc)
        r.directions.append(v)
        if oc.status != "mismatch":
            r.status = "nonsmooth"
            r.note = ("one random direction disagreed, but neither single elements nor a second "
                      "direction confirmed it (several kinks inside the finite-difference step can "
                      "do that, e.g. relu in float32)")

    def _nondeterminism(self, results: list[VarResult], first: list, second: list) -> dict | None:
        """Two identical backward passes must agree bit for bit; if they do not, say by how much
        and whether it is above what the check can resolve (then it is a failure)."""
        found: dict[str, object] = {}
        for r, a, b in zip(results, first, second):
            if a is None or b is None or r.nonfinite or torch.equal(a, b):
                continue
            d = (a - b).double()
            diff = float(d.abs().max())
            scale = float(a.double().abs().max())
            entry: dict[str, object] = {"max_abs_diff": diff, "max_rel_diff": diff / scale if scale else math.inf}
            if r.outcomes:
                shift = abs(float(torch.dot(d.reshape(-1), r.directions[0].double().reshape(-1))))
                entry["above_tolerance"] = shift > r.outcomes[0].level.tol
            found[r.var.name] = entry
        return found or None

    # -- reporting -----------------------------------------------------------------------------

    def _input_shell(self, var: Var) -> InputReport:
        return InputReport(name=var.name, kind=var.kind, shape=list(var.base.shape),
                           dtype=dtype_name(var.base.dtype), status="unchecked")

    def _input_report(self, r: VarResult) -> InputReport:
        rep = self._input_shell(r.var)
        rep.status, rep.note, rep.directions = r.status, r.note, len(r.outcomes)
        if r.nonfinite:
            rep.note = (f"the gradient contains {r.nonfinite['what']} at {r.nonfinite['where']} "
                        f"({r.nonfinite['count']} of {r.var.numel} elements)")
            return rep
        decisive = r.outcomes
        if r.sampled is not None:  # decided by single elements: report those numbers
            decisive = [e.outcome for e in (r.sampled.mismatched + r.sampled.agreeing or r.sampled.kinked)]
        elif r.vouched:  # decided by the blocks around the kinks
            decisive = r.vouched
        rep.kinks = [_element_report(e, "kink") for e in r.kinks[:KINKS_SHOWN]]
        rep.kinks_total = len(r.kinks)
        worst = max(decisive, key=lambda o: o.ratio, default=None)
        if worst is None:
            return rep
        lv = worst.level
        rep.abs_error, rep.rel_error, rep.ratio = worst.error, worst.rel_error, worst.ratio
        rep.noise_floor, rep.tolerance, rep.step = lv.noise, lv.tol, 2 * lv.s * r.var.scale
        # directions: an error shows in any of them, so the best one counts; sampled elements
        # each vouch only for themselves, so the weakest one counts
        rep.resolution = (max if r.sampled is not None or r.vouched else min)(o.resolution for o in decisive)
        if r.localisation is not None:
            loc = r.localisation
            rep.worst = [_element_report(e, "mismatch") for e in loc.mismatched[:5]]
            if not loc.mismatched:
                rep.note = ((rep.note + "; ") if rep.note else "") + (
                    "the mismatch is spread too thinly to pin on single elements")
            extra = r.hints + self._why_factor(r)
            if extra:
                rep.note = "; ".join(([rep.note] if rep.note else []) + extra)
        return rep

    def _why_factor(self, r: VarResult) -> list[str]:
        """A constant factor that a number argument or a gradient hook explains: what a
        gradient-reversal or scaling layer does on purpose."""
        loc = r.localisation
        factor = patterns.constant_factor(loc.mismatched) if loc is not None else None
        if factor is None:
            return []
        p = self.problem
        out = []
        for name, value in zip(p.names, p.args):
            if isinstance(value, (int, float)) and not isinstance(value, bool) and value not in (0, 1):
                for sign, word in ((1, ""), (-1, "-")):
                    if abs(factor - sign * value) <= 1e-6 * abs(value):
                        out.append(f"the factor is {word}{name} (= {value:g}), the number passed as "
                                   f"{name}: what a gradient scaling or reversal layer does on purpose")
        if p.observed.hooks:
            out.append(f"the forward registers a gradient hook ({', '.join(p.observed.hooks)}), which "
                       "changes the gradient on purpose: if this factor is what it should apply "
                       "(gradient reversal or scaling), the hook is right")
        return out[:2]

    def _float32_info(self, results: list[VarResult], f0: list[torch.Tensor], grads: list) -> dict | None:
        """What a float32 check could resolve, and for a scalar loss the finite-difference quantum
        ulp(L)/h: the reason hand-written float32 checks of summed losses return garbage."""
        low = self.target_dtype in LOW_PRECISION or dtype_name(self.dtype) in LOW_PRECISION
        if not low:
            return None
        e32 = EPS["float32"]
        s32 = e32 ** (1.0 / 3.0) / 2
        floors = []
        for r in results:
            for oc, pr in zip(r.outcomes, r.priors):
                if not pr or oc.scale <= 0 or oc.status not in ("agree", "mismatch"):
                    continue
                tol32 = SAFETY * NOISE_R * e32 * math.hypot(pr["fnorm"], pr["x_in"]) / s32 + e32 * pr["l1"]
                floors.append(tol32 / oc.scale)
        info: dict[str, object] = {}
        if floors:
            info["detection_floor"] = max(floors)
        if sum(o.numel() for o in f0) == 1:
            loss = to_float32(float(f0[0].reshape(-1)[0]))
            u = ulp(loss, "float32")
            # a strided sample of at most ~4096 entries: a sort of all of them costs more than
            # the check itself, and "typical size" needs no more
            gs = [g.detach().reshape(-1)[:: max(1, g.numel() // 4096)].abs().double()
                  for g in grads if g is not None]
            median = float(torch.cat(gs).median()) if gs else math.nan
            info["loss"] = {
                "value": loss, "ulp": u, "ulp_power_of_two": power_of_two(u),
                "fd_quantum": {"1e-3": u / 1e-3, "1e-4": u / 1e-4, f"{2 * s32:.1e}": u / (2 * s32)},
                "median_abs_gradient": median,
            }
        return info or None

    def _check_against(self, outs: list[torch.Tensor], leaves: list[torch.Tensor],
                       f0: list[torch.Tensor]) -> dict:
        """A hand-written gradient of sum(f): compared with autograd in ulps, and checked itself
        against finite differences (autograd may be the one that is wrong)."""
        p = self.problem
        inputs = [(v, leaf) for v, leaf in zip(p.vars, leaves) if v.kind == "input"]
        ones = [torch.ones(o.shape, dtype=torch.float64) for o in outs]
        auto = self._vjp(outs, [leaf for _, leaf in inputs], ones)
        try:
            hand = align_gradients(self.against(*p.args), [v for v, _ in inputs], len(p.args))
        except AgainstError as e:
            return {"error": str(e), "inputs": [], "finite_differences": [], "wrong": True,
                    "unresolved": False}
        table = ulp_table([v for v, _ in inputs], hand, auto)
        fd = []
        for (var, _), h in zip(inputs, hand):
            if h is None:
                continue
            oc = self.outcome_along(var, ones, self._direction(var), h, self.s0)
            fd.append({"name": var.name, "status": oc.status, "ratio": oc.ratio,
                       "rel_error": oc.rel_error, "resolution": oc.resolution})
        return {"inputs": table, "finite_differences": fd,
                "wrong": any(x["status"] == "mismatch" for x in fd),
                "unresolved": any(x["status"] in ("rough", "nonfinite") for x in fd)}

    def _verdict(self, results: list[VarResult], report: GradcheckReport) -> str:
        statuses = {r.status for r in results}
        nan_grad = any(r.nonfinite and r.nonfinite["what"].startswith("NaN") for r in results)
        nondet_fail = any(e.get("above_tolerance") for e in (report.nondeterministic or {}).values())
        against_fail = bool(report.against and report.against["wrong"])
        inplace_fail = bool(report.error and report.error.get("kind") == "inplace")
        if "mismatch" in statuses or nan_grad or nondet_fail or against_fail or inplace_fail:
            return FAIL
        if statuses & {"nonsmooth", "nonfinite"} or (report.against and report.against["unresolved"]):
            return INCONCLUSIVE
        return PASS


def _element_report(e, status: str) -> ElementReport:
    abs_err = abs(e.numerical - e.analytical)
    scale = max(abs(e.numerical), abs(e.analytical))
    return ElementReport(index=e.index, numerical=e.numerical, analytical=e.analytical,
                         abs_error=abs_err, rel_error=abs_err / scale if scale else 0.0,
                         value=e.value, status=status)


def _nonfinite_detail(t: torch.Tensor) -> dict[str, object]:
    t = t.detach()
    nan = torch.isnan(t)
    inf = torch.isinf(t)
    what = " and ".join(w for w, m in (("NaN", nan), ("Inf", inf)) if bool(m.any()))
    bad = (nan | inf).reshape(-1).nonzero().reshape(-1)
    where = [unravel(int(j), tuple(t.shape)) for j in bad[:3]]
    return {"what": what, "count": int(bad.numel()),
            "where": ", ".join(str(w) for w in where) + (" ..." if bad.numel() > 3 else "")}


def _nonfinite_summary(outs: list[torch.Tensor]) -> str:
    parts = []
    for i, o in enumerate(outs):
        if not all_finite(o):
            d = _nonfinite_detail(o)
            name = "output" if len(outs) == 1 else f"output {i}"
            parts.append(f"{name} has {d['what']} at {d['where']}")
    return "; ".join(parts)
