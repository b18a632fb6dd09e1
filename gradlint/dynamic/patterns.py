"""What the elements where a gradient is wrong have in common, said only when it was tested.

Localisation inspects a few dozen elements. A pattern guessed from so few can be a coincidence:
the largest values of a sparsemax input sit above one global value in the rows that happened
to be inspected, while the real rule is per row (the elements in each row's support). So every
pattern is a hypothesis that predicts the verdict of elements *not yet inspected*, a few such
elements are checked, and only a hypothesis whose predictions all held is reported. In order of
preference:

- a flat forward: finite differences are 0 wherever autograd disagrees (a straight-through
  estimator or another surrogate gradient);
- a constant factor: autograd / finite differences is the same at every mismatching element;
- the support: mismatching exactly where the output is nonzero (elementwise or row-wise maps
  with an output of the input's shape: sparsemax, entmax, relu-like masks);
- a global threshold: every mismatching element has x >= T and every agreeing one x <= T';
- a per-row threshold: within each row the mismatching elements are the largest (or smallest).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import torch

from .localise import Element

Check = Callable[[int], Element]  # flat index -> the element checked by finite differences
TRIES = 4  # fresh elements per prediction side


def _fmt(x: float) -> str:
    return f"{x:.3g}"


def constant_factor(mismatched: list[Element]) -> float | None:
    ratios = [e.analytical / e.numerical for e in mismatched if e.numerical]
    if len(ratios) >= 2 and any(e.analytical for e in mismatched):
        lo, hi = min(ratios), max(ratios)
        if hi - lo <= 1e-3 * max(abs(lo), abs(hi)):
            return (lo + hi) / 2
    return None


def _ratio(e: Element) -> str:
    """The one element of a scalar input: the ratio, as a fraction when it is one (a mean
    where a sum belongs is 1/n)."""
    r = e.analytical / e.numerical
    text = f"autograd / finite differences = {r:.4g}"
    if r and abs(1 / r) >= 2 and abs(1 / r - round(1 / r)) <= 1e-6 * abs(1 / r):
        text += f" (= 1/{round(1 / r)}: a mean where a sum belongs, or a missing factor?)"
    elif abs(r) >= 2 and abs(r - round(r)) <= 1e-6 * abs(r):
        text += f" (= {round(r)})"
    return text


class _Tester:
    """Checks fresh elements against a prediction, within a budget shared by all hypotheses."""

    def __init__(self, check: Check, seen: set[int], gen: torch.Generator, budget: int) -> None:
        self.check, self.seen, self.gen, self.budget = check, seen, gen, budget
        self.cache: dict[int, Element] = {}
        self.tested = 0

    def holds(self, predict_mismatch: list[int], predict_agree: list[int]) -> bool | None:
        """True if every decided fresh element behaved as predicted, False if one did not, None
        if nothing could be tested (no candidates, or the budget is spent)."""
        decided = 0
        for candidates, want in ((predict_mismatch, "mismatch"), (predict_agree, "agree")):
            pool = [j for j in candidates if j not in self.seen]
            if not pool:
                continue
            order = torch.randperm(len(pool), generator=self.gen)[:TRIES].tolist()
            for j in (pool[i] for i in order):
                if j not in self.cache:
                    if self.budget <= 0:
                        break
                    self.budget -= 1
                    self.tested += 1
                    self.cache[j] = self.check(j)
                status = self.cache[j].outcome.status
                if status not in ("mismatch", "agree"):
                    continue  # next to a kink: says nothing
                if status != want:
                    return False
                decided += 1
        return True if decided else None


def describe(name: str, mismatched: list[Element], agreeing: list[Element], check: Check,
             values: torch.Tensor, output: torch.Tensor | None, shape: tuple[int, ...],
             gen: torch.Generator, budget: int = 12) -> list[str]:
    """Sentences about the mismatching elements that held on fresh elements.

    `values`: the input, flat; `output`: the output, flat, when it has the input's shape."""
    hints = []
    if mismatched and all(e.analytical and abs(e.numerical) <= 1e-9 * abs(e.analytical) for e in mismatched):
        hints.append("finite differences are 0 at every mismatching element while autograd is not: the "
                     "forward is flat there (piecewise constant: sign, round, a comparison, a clamp), so "
                     "the backward returns a surrogate gradient, as a straight-through estimator does on "
                     "purpose")
    factor = constant_factor(mismatched)
    if factor is not None:
        hints.append(f"autograd = {factor:.5g} x finite differences at all {len(mismatched)} "
                     "mismatching elements inspected (a constant factor)")
    elif len(mismatched) == 1 and values.numel() == 1 and mismatched[0].numerical:
        hints.append(_ratio(mismatched[0]))
    if not mismatched or not agreeing:
        return hints
    tester = _Tester(check, {e.flat for e in mismatched + agreeing}, gen, budget)
    n = values.numel()
    if output is not None:
        support = _support(name, mismatched, agreeing, output, n, tester)
        if support:
            return [*hints, support]
    global_ = _global_threshold(name, mismatched, agreeing, values, tester)
    if global_:
        return [*hints, global_]
    per_row = _per_row(name, mismatched, agreeing, values, shape, tester)
    if per_row:
        hints.append(per_row)
    return hints


def _support(name: str, mis: list[Element], agr: list[Element], out: torch.Tensor, n: int,
             tester: _Tester) -> str | None:
    nonzero = out != 0
    if bool(nonzero.all()) or not bool(nonzero.any()):
        return None
    for inside, word in ((True, "nonzero"), (False, "zero")):
        if all(bool(nonzero[e.flat]) == inside for e in mis) and all(bool(nonzero[e.flat]) != inside for e in agr):
            where = nonzero if inside else ~nonzero
            pm = where.nonzero().reshape(-1).tolist()
            pa = (~where).nonzero().reshape(-1).tolist()
            if tester.holds(pm, pa):
                count = int(where.sum())
                return (f"the gradient is wrong exactly where the output is {word} ({count} of {n} "
                        f"elements{', the support' if inside else ''}) and right where it is "
                        f"{'zero' if inside else 'nonzero'}: checked on {tester.tested} more elements")
    return None


def _global_threshold(name: str, mis: list[Element], agr: list[Element], values: torch.Tensor,
                      tester: _Tester) -> str | None:
    if len(mis) < 2 or len(agr) < 2:
        return None
    mv, av = [e.value for e in mis], [e.value for e in agr]
    if min(mv) > max(av):
        pm = (values >= min(mv)).nonzero().reshape(-1).tolist()
        pa = (values <= max(av)).nonzero().reshape(-1).tolist()
        if tester.holds(pm, pa) is not False:
            return (f"every mismatching element has {name} >= {_fmt(min(mv))} and every agreeing one "
                    f"{name} <= {_fmt(max(av))}" + _confirmed(tester))
    elif max(mv) < min(av):
        pm = (values <= max(mv)).nonzero().reshape(-1).tolist()
        pa = (values >= min(av)).nonzero().reshape(-1).tolist()
        if tester.holds(pm, pa) is not False:
            return (f"every mismatching element has {name} <= {_fmt(max(mv))} and every agreeing one "
                    f"{name} >= {_fmt(min(av))}" + _confirmed(tester))
    return None


def _confirmed(tester: _Tester) -> str:
    return f" (confirmed on {tester.tested} more elements)" if tester.tested else ""


def _per_row(name: str, mis: list[Element], agr: list[Element], values: torch.Tensor,
             shape: tuple[int, ...], tester: _Tester) -> str | None:
    if len(shape) < 2:
        return None
    width = shape[-1]
    rows: dict[int, tuple[list[float], list[float]]] = {}
    for e in mis:
        rows.setdefault(e.flat // width, ([], []))[0].append(e.value)
    for e in agr:
        rows.setdefault(e.flat // width, ([], []))[1].append(e.value)
    mixed = {r: (m, a) for r, (m, a) in rows.items() if m and a}
    if not mixed:
        return None
    for largest in (True, False):
        if not all((min(m) > max(a)) if largest else (max(m) < min(a)) for m, a in mixed.values()):
            continue
        pm, pa = [], []
        for r, (m, a) in mixed.items():
            row = values[r * width:(r + 1) * width]
            idx = torch.arange(r * width, (r + 1) * width)
            if largest:
                pm += idx[row >= min(m)].tolist()
                pa += idx[row <= max(a)].tolist()
            else:
                pm += idx[row <= max(m)].tolist()
                pa += idx[row >= min(a)].tolist()
        if tester.holds(pm, pa) is False:
            continue
        side = "above" if largest else "below"
        return (f"within each row the mismatching elements are the {'largest' if largest else 'smallest'} "
                f"values of {name}, {side} a threshold that differs from row to row (as for the "
                f"elements in a sparsemax/entmax support), not {side} one global value"
                + _confirmed(tester))
    return None


def output_like(outs: list[torch.Tensor], base: torch.Tensor) -> Any:
    """The output, flat, when there is one of the input's shape (so indices line up)."""
    if len(outs) == 1 and tuple(outs[0].shape) == tuple(base.shape):
        return outs[0].detach().reshape(-1)
    return None
