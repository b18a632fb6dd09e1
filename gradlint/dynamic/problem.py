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


_MODE_CLASS: type | None = None


def _observer_mode(seen: dict[str, str], tainted: set[int]):
    """A dispatch mode that records the floating dtypes computed on the differentiable path
    (dtype surprises: a float64 check of code that calls .float() inside can only resolve
    float32 precision). 'On the path' = some argument is a variable or an earlier result on
    the path (tracked by object identity); constants made in float32 do not count."""
    global _MODE_CLASS
    if _MODE_CLASS is None:
        try:
            from torch.utils._python_dispatch import TorchDispatchMode
        except ImportError:  # pragma: no cover - very old torch
            return None

        class Mode(TorchDispatchMode):
            def __init__(self, seen, tainted):
                super().__init__()
                self.seen, self.tainted = seen, tainted

            def __torch_dispatch__(self, func, types, args=(), kwargs=None):
                result = func(*args, **(kwargs or {}))
                if _touches(args, self.tainted) or (kwargs and _touches(kwargs.values(), self.tainted)):
                    for r in result if isinstance(result, (tuple, list)) else (result,):
                        if isinstance(r, torch.Tensor) and r.is_floating_point():
                            self.tainted.add(id(r))
                            if r.dtype not in (torch.float64,):
                                self.seen.setdefault(dtype_name(r.dtype), str(func).removesuffix(".default"))
                return result

        _MODE_CLASS = Mode
    return _MODE_CLASS(seen, tainted)


def _touches(args, tainted: set[int]) -> bool:
    for a in args:
        if isinstance(a, (list, tuple)):
            if any(id(b) in tainted for b in a):
                return True
        elif id(a) in tainted:
            return True
    return False


class Problem:
    def __init__(self, fn: Callable[..., Any], args: list[Any], var_names: list[str],
                 module: torch.nn.Module | None = None, seed: int = 0) -> None:
        self.fn = fn
        self.args = list(args)
        self.module = module
        self.seed = seed
        self.reseed = False  # the target draws random numbers: same RNG state before every forward
        self.rng_state: torch.Tensor | None = None
        self.grad_enabled_fd = False  # the target needs autograd inside its forward
        self.observed_dtypes: dict[str, str] = {}
        self.vars: list[Var] = []
        self.constants: list[tuple[str, str, list[int]]] = []  # non-floating tensors: name, dtype, shape
        for i, a in enumerate(self.args):
            name = var_names[i] if i < len(var_names) else f"input{i}"
            if isinstance(a, torch.Tensor):
                if a.is_floating_point():
                    base = a.detach().clone()
                    self.args[i] = base
                    self.vars.append(Var(name, "input", base, position=i, scale=max(1.0, rms(base))))
                else:
                    self.constants.append((name, dtype_name(a.dtype), list(a.shape)))
        if module is not None:
            for pname, p in module.named_parameters():
                if p.requires_grad and p.is_floating_point():
                    base = p.detach().clone()
                    self.vars.append(Var(pname, "parameter", base, param=p, scale=max(1.0, rms(base))))

    # -- calling -----------------------------------------------------------------------------

    def _call(self, args: list[Any]) -> Any:
        if self.reseed:
            torch.random.set_rng_state(self.rng_state)
        return self.fn(*args)

    def graph_forward(self) -> tuple[list[torch.Tensor], list[torch.Tensor]]:
        """One forward with every variable requiring grad: (floating outputs, leaf per var).

        Also learns whether the target draws random numbers (then every later forward is
        seeded identically, so dropout masks agree between the evaluations) and which dtypes
        it computes in."""
        args = list(self.args)
        leaves: list[torch.Tensor] = []
        for v in self.vars:
            if v.kind == "input":
                leaf = v.base.clone().requires_grad_(True)
                args[v.position] = leaf
            else:
                with torch.no_grad():
                    v.param.copy_(v.base)
                leaf = v.param
            leaves.append(leaf)
        # Restoring the RNG state before every forward makes random draws (dropout) identical
        # across evaluations; it is cheap, unlike torch.manual_seed.
        self.rng_state = torch.random.get_rng_state()
        seen: dict[str, str] = {}
        mode = _observer_mode(seen, {id(leaf) for leaf in leaves})
        with torch.enable_grad():
            out = None
            if mode is not None:
                try:
                    with mode:
                        out = self.fn(*args)
                    self.observed_dtypes = seen
                except Exception:  # noqa: BLE001 - some code does not run under a dispatch mode
                    torch.random.set_rng_state(self.rng_state)
            if out is None:
                out = self.fn(*args)
        self.reseed = not torch.equal(self.rng_state, torch.random.get_rng_state())
        return float_leaves(out), leaves

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
                # e.g. a forward that calls torch.autograd.grad itself: evaluate with autograd on.
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
