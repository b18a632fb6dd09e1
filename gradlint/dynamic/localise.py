"""Pin a directional mismatch down to elements: best-first bisection over blocks of v.

The error of u·J·v is additive over the elements of v, so a block of v (v with everything
outside the block zeroed) carries exactly that block's share of it. Blocks are halved, depth
first, the half with the larger error-to-tolerance ratio first, and blocks of at most LEAF
elements are checked element by element, which gives the numerical and analytical values of
d(u·f)/dx[i] that the report shows. The cost is a few stencils per level of a binary tree,
so finding the worst elements of a 96x96 input takes a few dozen stencils, not 9216.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable
from dataclasses import dataclass, field

import torch

from .numerics import Outcome

LEAF = 8
MAX_TESTS = 64  # stencils spent on blocks and elements together
WANT = 5  # mismatching elements to show


@dataclass
class Element:
    flat: int
    index: list[int]
    outcome: Outcome
    numerical: float  # d(u·f)/dx[index] by finite differences
    analytical: float  # the same from autograd
    value: float  # x[index]


@dataclass
class Localisation:
    mismatched: list[Element] = field(default_factory=list)
    agreeing: list[Element] = field(default_factory=list)
    kinked: list[Element] = field(default_factory=list)
    tests: int = 0

    def add(self, el: Element) -> None:
        {"mismatch": self.mismatched, "agree": self.agreeing}.get(el.outcome.status, self.kinked).append(el)


def check_element(j: int, shape: torch.Size, scale: float, flat_g: torch.Tensor, flat_x: torch.Tensor,
                  outcome_along: Callable[[torch.Tensor], Outcome]) -> Element:
    """d(u·f)/dx[j] by finite differences along e_j (scaled like the input) and from autograd."""
    d = torch.zeros(flat_x.numel(), dtype=flat_x.dtype)
    d[j] = scale
    oc = outcome_along(d.reshape(shape))
    return Element(j, unravel(j, tuple(shape)), oc, oc.numerical / scale, float(flat_g[j]), float(flat_x[j]))


def unravel(flat: int, shape: tuple[int, ...]) -> list[int]:
    idx = []
    for n in reversed(shape):
        idx.append(flat % n if n else 0)
        flat //= n if n else 1
    return list(reversed(idx))


def localise(v: torch.Tensor, grad: torch.Tensor, base: torch.Tensor, scale: float,
             outcome_along: Callable[[torch.Tensor], Outcome],
             max_tests: int = MAX_TESTS, want: int = WANT) -> Localisation:
    """`outcome_along(direction)` compares u·J·direction (autograd) with finite differences."""
    flat_v = v.reshape(-1)
    flat_g = grad.reshape(-1).to(torch.float64)
    flat_x = base.reshape(-1)
    n = flat_v.numel()
    found = Localisation()

    def block(lo: int, hi: int) -> Outcome:
        d = torch.zeros_like(flat_v)
        d[lo:hi] = flat_v[lo:hi]
        found.tests += 1
        return outcome_along(d.reshape(v.shape))

    def element(j: int) -> None:
        found.tests += 1
        found.add(check_element(j, v.shape, scale, flat_g, flat_x, outcome_along))

    # Depth first, larger error-to-tolerance ratio first: a uniform error makes every block
    # mismatch, and a breadth-first search would spend the budget before reaching one element.
    heap: list[tuple[int, float, int, int, int]] = [(0, -float("inf"), 0, 0, n)]
    counter = 1
    while heap and found.tests < max_tests and len(found.mismatched) < want:
        depth, _, _, lo, hi = heapq.heappop(heap)
        if hi - lo <= LEAF:
            for j in range(lo, hi):
                if found.tests >= max_tests:
                    break
                element(j)
            continue
        mid = (lo + hi) // 2
        halves = [(block(a, b), a, b) for a, b in ((lo, mid), (mid, hi))]
        keep = [(oc, a, b) for oc, a, b in halves if oc.ratio > 0.25]
        if not keep:  # the parent's error is spread thinly: follow the larger share
            keep = [max(halves, key=lambda h: h[0].ratio)]
        for oc, a, b in keep:
            heapq.heappush(heap, (depth - 1, -oc.ratio, counter, a, b))
            counter += 1
    found.mismatched.sort(key=lambda e: -abs(e.numerical - e.analytical))
    return found
