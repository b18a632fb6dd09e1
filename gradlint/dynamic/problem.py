"""The target seen as a function of its differentiable variables.

A `Problem` owns the target callable, its arguments at the check dtype, and the variables that
are checked (floating tensor arguments and, for a module, its trainable parameters). It builds
the autograd graph once and evaluates the outputs at points where one variable is perturbed.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import torch

from .floats import dtype_name
from .observe import Observation, observing, versions

LEAF_INPLACE = "a leaf Variable that requires grad"  # torch's error for an in-place write to a leaf


@dataclass
class Var:
    name: str
    kind: str  # "input" | "parameter"
    base: torch.Tensor  # the point the check is made at (detached)
    position: int | None = None  # argument index, for inputs
    param: torch.nn.Parameter | None = None  # the live parameter, for module parameters
    scale: float = 1.0  # directions are scaled to the input's size: max(1, rms(base))

    @property
    def numel(self) -> int:
        return self.base.numel()


def float_leaves(obj: Any) -> list[torch.Tensor]:
    """The floating-point tensors in a (nested) tuple/list/dict/namedtuple output, in order."""
    out: list[torch.Tensor] = []

    def walk(o: Any) -> None:
        if isinstance(o, torch.Tensor):
            if o.is_floating_point():
                out.append(o)
        elif isinstance(o, dict):
            for k in o:
                walk(o[k])
        elif isinstance(o, (list, tuple)):
            for x in o:
                walk(x)

    walk(obj)
    return out


def all_finite(t: torch.Tensor) -> bool:
    # A finite sum implies finite elements (NaN and Inf propagate); the elementwise test runs
    # only when the sum overflows or is not finite.
    if t.numel() == 0 or math.isfinite(float(t.detach().sum())):
        return True
    return bool(torch.isfinite(t.detach()).all())


def rms(t: torch.Tensor) -> float:
    t = t.detach()
    if t.numel() == 0:
        return 0.0
    if not all_finite(t):
        t = t[torch.isfinite(t)]
    return float(torch.linalg.vector_norm(t, dtype=torch.float64)) / math.sqrt(max(t.numel(), 1))


@dataclass
class InPlace:
    """An argument the forward wrote in place."""

    name: str
    where: str | None  # file:line of the write, when the dispatch mode saw it
    returned: bool  # the forward returned that very tensor (what ctx.mark_dirty allows)


class Problem:
    def __init__(self, fn: Callable[..., Any], args: list[Any], var_names: list[str],
                 module: torch.nn.Module | None = None, seed: int = 0,
                 constants: frozenset[str] | set[str] = frozenset()) -> None:
        self.fn = fn
        self.args = list(args)
        self.module = module
        self.seed = seed
        self.reseed = False  # the target draws random numbers: same RNG state before every forward
        self.rng_state: torch.Tensor | None = None
        self.grad_enabled_fd = False  # the target needs autograd inside its forward
        # The target writes an argument in place: every call gets fresh copies, so the base
        # point stays where it was and every evaluation sees the same function.
        self.copy_inputs = False
        self.observed = Observation()
        self.inplace: list[InPlace] = []
        self.vars: list[Var] = []
        self.constants: list[tuple[str, str, list[int]]] = []  # non-floating tensors: name, dtype, shape
        self.fixed: list[tuple[str, str, list[int]]] = []  # arguments the caller marked constant
        self.names = [var_names[i] if i < len(var_names) else f"input{i}" for i in range(len(self.args))]
        wanted = set(constants)
        for i, a in enumerate(self.args):
            name = self.names[i]
            if isinstance(a, torch.Tensor):
                if name in wanted or str(i) in wanted:
                    wanted.discard(name)
                    wanted.discard(str(i))
                    self.fixed.append((name, dtype_name(a.dtype), list(a.shape)))
                elif a.is_floating_point():
                    base = a.detach().clone()
                    self.args[i] = base
                    self.vars.append(Var(name, "input", base, position=i, scale=max(1.0, rms(base))))
                else:
                    self.constants.append((name, dtype_name(a.dtype), list(a.shape)))
            elif name in wanted or str(i) in wanted:  # not a tensor: constant anyway
                wanted.discard(name)
                wanted.discard(str(i))
                self.fixed.append((name, type(a).__name__, []))
        if module is not None:
            for pname, p in module.named_parameters():
                if pname in wanted:
                    wanted.discard(pname)
                    self.fixed.append((pname, dtype_name(p.dtype), list(p.shape)))
                elif p.requires_grad and p.is_floating_point():
                    base = p.detach().clone()
                    self.vars.append(Var(pname, "parameter", base, param=p, scale=max(1.0, rms(base))))
        self.unknown_constants = sorted(wanted)

    @property
    def observed_dtypes(self) -> dict[str, str]:
        return self.observed.dtypes

    # -- calling -----------------------------------------------------------------------------

    def _call(self, args: list[Any]) -> Any:
        if self.reseed:
            torch.random.set_rng_state(self.rng_state)
        if self.copy_inputs:
            args = [a.clone() if isinstance(a, torch.Tensor) else a for a in args]
        return self.fn(*args)

    def graph_forward(self) -> tuple[list[torch.Tensor], list[torch.Tensor]]:
        """One forward with every variable requiring grad: (floating outputs, leaf per var).

        Also learns whether the target draws random numbers (then every later forward is
        seeded identically, so dropout masks agree between the evaluations), which dtypes it
        computes in, which hooks it registers, and whether it writes its arguments in place
        (then the forward runs again, and every later one too, on fresh copies)."""
        leaves: list[torch.Tensor] = []
        for v in self.vars:
            if v.kind == "input":
                leaves.append(v.base.clone().requires_grad_(True))
            else:
                with torch.no_grad():
                    v.param.copy_(v.base)
                leaves.append(v.param)
        # Restoring the RNG state before every forward makes random draws (dropout) identical
        # across evaluations; it is cheap, unlike torch.manual_seed.
        self.rng_state = torch.random.get_rng_state()
        args = self._graph_args(leaves)
        before = versions(args)
        seen = Observation()
        with torch.enable_grad():
            try:
                with observing(seen, leaves, args):
                    out = self.fn(*args)
            except Exception as e:  # noqa: BLE001 - decided below
                if LEAF_INPLACE in str(e) and not self.copy_inputs:
                    out = None  # it writes its input in place: again, on a copy of each leaf
                else:  # some code does not run under a dispatch mode: again without it
                    torch.random.set_rng_state(self.rng_state)
                    seen = Observation()
                    args = self._graph_args(leaves)
                    before = versions(args)
                    out = self.fn(*args)
        self.observed = seen
        written = [i for i, (b, a) in enumerate(zip(before, versions(args))) if b is not None and a != b]
        if written and out is not None and not self.inplace:
            outs = float_leaves(out)
            self.inplace = [InPlace(self.names[i], seen.writes.get(id(args[i])),
                                    any(o is args[i] for o in outs)) for i in written]
        if (out is None or written) and not self.copy_inputs:
            self.copy_inputs = True
            torch.random.set_rng_state(self.rng_state)
            return self.graph_forward()
        self.reseed = not torch.equal(self.rng_state, torch.random.get_rng_state())
        return float_leaves(out), leaves

    def _graph_args(self, leaves: list[torch.Tensor]) -> list[Any]:
        """The arguments of the graph forward: the leaves at the variables' positions (through a
        clone in copy mode, so that an in-place write reaches a copy and the gradient still
        flows to the leaf), and fresh copies of the other tensors (a write must not reach the
        base point)."""
        positions = {v.position for v in self.vars if v.kind == "input"}
        args = [a.clone() if isinstance(a, torch.Tensor) and i not in positions else a
                for i, a in enumerate(self.args)]
        for v, leaf in zip(self.vars, leaves):
            if v.kind == "input":
                args[v.position] = leaf.clone() if self.copy_inputs else leaf
        return args

    def base_outputs(self) -> list[torch.Tensor]:
        """Outputs at the base point, evaluated the way every finite-difference point is."""
        return self._forward_no_graph(list(self.args))

    def outputs_at(self, var: Var, v: torch.Tensor, t: float) -> list[torch.Tensor]:
        """Outputs with `var` moved to base + t·v, no graph."""
        args = list(self.args)
        point = torch.add(var.base, v, alpha=t)
        try:
            if var.kind == "input":
                args[var.position] = point
            else:
                with torch.no_grad():
                    var.param.copy_(point)
            return self._forward_no_graph(args)
        finally:
            if var.kind == "parameter":
                with torch.no_grad():
                    var.param.copy_(var.base)

    def _forward_no_graph(self, args: list[Any]) -> list[torch.Tensor]:
        if not self.grad_enabled_fd:
            try:
                with torch.no_grad():
                    return [o.detach() for o in float_leaves(self._call(args))]
            except RuntimeError as e:
                # e.g. a forward that calls torch.autograd.grad or register_hook itself:
                # evaluate with autograd on.
                if "grad" not in str(e):
                    raise
                self.grad_enabled_fd = True
        with torch.enable_grad():
            args = [a.detach().requires_grad_(True) if isinstance(a, torch.Tensor)
                    and a.is_floating_point() else a for a in args]
            return [o.detach() for o in float_leaves(self._call(args))]

    def restore(self) -> None:
        """Put module parameters back to the base point (after an interrupted evaluation)."""
        for v in self.vars:
            if v.kind == "parameter":
                with torch.no_grad():
                    v.param.copy_(v.base)


def changed_norm(us: list[torch.Tensor], outs: list[torch.Tensor], base: list[torch.Tensor]) -> float:
    """‖u∘f‖₂ over the outputs that a perturbation actually changed: rounding noise in u·f comes
    only from those (perturbing one element of an elementwise function changes one output)."""
    total = 0.0
    for u, o, b in zip(us, outs, base):
        w = u * b.to(torch.float64)
        changed = o != b
        if not bool(changed.all()):
            w = torch.where(changed, w, 0.0)
        total += float(torch.linalg.vector_norm(w)) ** 2
    return math.sqrt(total)
