"""Directional derivatives compared with a tolerance built from the noise that is really there.

For one output weighting u and one direction v, g(t) = u·(f(x + t·v) - f(x)) is a scalar
function of t (the difference is taken per output, so outputs that do not move contribute
exactly 0). Autograd gives g'(0) = u·J·v up to round-off (one vector-Jacobian product). The
finite-difference side evaluates g on the five-point stencil {-2s, -s, 0, s, 2s}:

    D1 = (g(2s) - g(-2s)) / 4s       central difference, step 2s
    D2 = (g(s)  - g(-s))  / 2s       central difference, step s
    R  = (4·D2 - D1) / 3             Richardson: truncation O(s^4) instead of O(s^2)
    Δ4 = g(2s) - 4g(s) + 6g(0) - 4g(-s) + g(-2s)

For smooth g, Δ4 ≈ s^4·g'''' is negligible and what remains is rounding noise with std
sqrt(70)·σ (σ the noise of one evaluation), so |Δ4|/sqrt(70) is an empirical estimate of σ; the
a-priori one is eps·‖u∘f‖₂ (plus the rounding of x + t·v). The tolerance is

    tol = SAFETY · NOISE_R·max(σ_prior, σ_empirical)/s  +  |D1 - D2|  +  eps·Σ|vjp∘v|
          (noise of R)                                     (truncation)   (autodiff round-off)

A kink inside the stencil (relu at 0) inflates Δ4 and |D1 - D2| more than it moves R (for a
single kink, by a factor of at least 1.5 at any position: docs/gradcheck.md), so it widens the
tolerance instead of producing a false mismatch. A stencil whose Δ4 is far above the a-priori
noise is "rough", and the step is shrunk (a kink at distance d leaves once 2s < d) until the
stencil is smooth or the step could no longer resolve a 5% error. Several kinks can cancel in
Δ4, so a mismatch is only believed when a smaller step repeats it (classify).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

SAFETY = 8.0  # tolerance in units of the noise std of R
ROUGH = 8.0  # Δ4 above ROUGH·(a-priori noise): the stencil saw a kink or noise beyond rounding
SHRINK = 8.0  # step ratio between two levels of the cascade
MAX_LEVELS = 5  # stencils per comparison at most (confirmations included)
CONFIRM = 4.0  # a mismatch is confirmed at s/CONFIRM
RESOLVE = 0.05  # do not shrink the step below what can still resolve a 5% error (a pass needs that)
NOISE_R = math.sqrt(130.0) / 12.0  # std of R per unit σ/s: R = (8(g(s)-g(-s)) - (g(2s)-g(-2s)))/12s
NOISE_D4 = math.sqrt(70.0)  # std of Δ4 per unit σ
NOISE_A = math.sqrt(6.0)  # std of s·A(s) per unit σ


@dataclass
class Level:
    """One stencil at step s and what it says."""

    s: float
    a: float  # the analytical directional derivative it is compared with
    finite: bool
    R: float = math.nan
    D1: float = math.nan
    D2: float = math.nan
    d4: float = math.nan
    A1: float = math.nan  # (g(s) - 2g(0) + g(-s)) / s   ~ g''·s, or the slope jump at a kink at 0
    A2: float = math.nan  # (g(2s) - 2g(0) + g(-2s)) / 2s
    sigma_prior: float = 0.0
    sigma_emp: float = 0.0
    noise: float = math.nan  # std of R due to rounding
    trunc: float = math.nan
    ad: float = 0.0
    tol: float = math.nan

    @property
    def rough(self) -> bool:
        return not self.finite or self.sigma_emp > ROUGH * self.sigma_prior

    @property
    def error(self) -> float:
        return self.R - self.a

    @property
    def mismatch(self) -> bool:
        return self.finite and abs(self.error) > self.tol

    @property
    def kink_at_point(self) -> bool:
        """One-sided slopes differ at t = 0: A(s) ≈ A(2s) (a jump) rather than A(2s) ≈ 2·A(s) (curvature)."""
        if not self.finite:
            return False
        # a-priori noise: the empirical one is inflated by the very kink this looks for
        noise_a = NOISE_A * self.sigma_prior / self.s
        return abs(self.A1) > 4 * noise_a and abs(self.A2 - self.A1) < abs(self.A2 - 2 * self.A1)


@dataclass
class Outcome:
    """What one directional comparison concluded."""

    status: str  # agree | mismatch | unconfirmed | rough | nonfinite
    level: Level  # the level the conclusion rests on
    levels: list[Level] = field(default_factory=list)
    ref: float = 0.0  # typical size of u·J·v for directions like this one: ‖(Jᵀu)∘v‖₂

    @property
    def a(self) -> float:
        return self.level.a

    @property
    def numerical(self) -> float:
        return self.level.R

    @property
    def error(self) -> float:
        return abs(self.level.error) if self.level.finite else math.inf

    @property
    def scale(self) -> float:
        return max(abs(self.level.a), abs(self.level.R)) if self.level.finite else abs(self.level.a)

    @property
    def rel_error(self) -> float:
        sc = self.scale
        if not self.level.finite:
            return math.inf
        return self.error / sc if sc > 0 else 0.0

    @property
    def ratio(self) -> float:
        lv = self.level
        if not lv.finite:
            return math.inf
        return self.error / lv.tol if lv.tol > 0 else (0.0 if self.error == 0 else math.inf)

    @property
    def resolution(self) -> float:
        """The smallest relative gradient error this comparison could have seen: the tolerance
        over the typical size of u·J·v (not over this draw's |u·J·v|, which may be small)."""
        ref = self.ref or self.scale
        if not self.level.finite:
            return math.inf
        return self.level.tol / ref if ref > 0 else math.inf

    @property
    def agrees(self) -> bool:
        return self.level.finite and not self.level.mismatch

    @property
    def kink_at_point(self) -> bool:
        return any(lv.kink_at_point for lv in self.levels)


class Line:
    """g(t) = u·f(x + t·v) for one variable; remembers the noise scale of the outputs it moved."""

    def __init__(self, evaluate: Callable[[float], float], g0: float) -> None:
        self.evaluate = evaluate
        self.g0 = g0

    def __call__(self, t: float) -> float:
        return self.evaluate(t)


def measure(line: Line, s: float, a: float, sigma_prior: Callable[[], float], ad: float) -> Level:
    gp1, gm1 = line(s), line(-s)
    gp2, gm2 = line(2 * s), line(-2 * s)
    g0 = line.g0
    if not all(math.isfinite(v) for v in (gp1, gm1, gp2, gm2, g0)):
        return Level(s=s, a=a, finite=False, ad=ad)
    d2 = (gp1 - gm1) / (2 * s)
    d1 = (gp2 - gm2) / (4 * s)
    r = (4 * d2 - d1) / 3
    d4 = gp2 - 4 * gp1 + 6 * g0 - 4 * gm1 + gm2
    sp = sigma_prior()
    se = abs(d4) / NOISE_D4
    noise = NOISE_R * max(sp, se) / s
    trunc = abs(d1 - d2)
    return Level(
        s=s, a=a, finite=True, R=r, D1=d1, D2=d2, d4=d4,
        A1=(gp1 - 2 * g0 + gm1) / s, A2=(gp2 - 2 * g0 + gm2) / (2 * s),
        sigma_prior=sp, sigma_emp=se, noise=noise, trunc=trunc, ad=ad,
        tol=SAFETY * noise + trunc + ad,
    )


def classify(line: Line, s0: float, a: float, sigma_prior: Callable[[], float], ad: float,
             max_levels: int = MAX_LEVELS, ref: float = 0.0) -> Outcome:
    """Compare g'(0) = a with finite differences, shrinking the step while the stencil is rough.

    A smooth stencil that agrees decides "agree". One that mismatches is re-measured at s/4: a
    wrong gradient gives the same R at both steps, while several kinks inside the stencil can
    hide from Δ4 and |D1 - D2| but not survive a change of step. So "mismatch" needs two
    consistent mismatching steps; a smaller step that agrees and moved R says the larger one
    straddled kinks. A rough stencil is retried at s/8 while that can still resolve 5%. What
    stays undecided is "rough", resting on the level with the smallest tolerance."""
    levels: list[Level] = []
    s = s0
    pending: Level | None = None  # a smooth level that mismatched, awaiting confirmation
    for _ in range(max_levels):
        lv = measure(line, s, a, sigma_prior, ad)
        levels.append(lv)
        if pending is not None:
            same = lv.finite and _consistent(pending, lv)
            if lv.mismatch and same and not lv.rough:
                return Outcome("mismatch", pending, levels, ref)
            if lv.finite and not lv.rough and not lv.mismatch:
                # agrees at the smaller step: either the larger one straddled kinks (R moved),
                # or the smaller step is too noisy to confirm (R did not move): undecided, and
                # the outcome keeps the unconfirmed mismatch so that the caller looks closer
                return Outcome("agree", lv, levels, ref) if not same else \
                    Outcome("unconfirmed", pending, levels, ref)
            pending = None
        if not lv.rough:
            if not lv.mismatch:
                return Outcome("agree", lv, levels, ref)
            pending = lv
            s /= CONFIRM
            continue
        s_next = s / SHRINK
        scale = max(ref, abs(a), abs(lv.R) if lv.finite else 0.0)
        noise_next = SAFETY * NOISE_R * lv.sigma_prior / s_next + ad
        if scale > 0 and noise_next > RESOLVE * scale:
            break
        s = s_next
    finite = [lv for lv in levels if lv.finite]
    if not finite:
        return Outcome("nonfinite", levels[-1], levels, ref)
    return Outcome("rough", min(finite, key=lambda x: x.tol), levels, ref)


def _consistent(a: Level, b: Level) -> bool:
    return abs(a.R - b.R) <= a.tol + b.tol
