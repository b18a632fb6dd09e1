"""The target seen as a function of its differentiable variables.

A `Problem` owns the target callable, its arguments at the check dtype, and the variables that
are checked (floating tensor arguments and, for a module, its trainable parameters). It builds
the autograd graph once and evaluates the outputs at points where one variable is perturbed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable

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


def rms(t: torch.Tensor) -> float:
    t = t.detach()
    t = t[torch.isfinite(t)] if t.numel() else t
    return float(t.double().pow(2).mean().sqrt()) if t.numel() else 0.0


class _DtypeObserver:
    """Records the floating dtypes that the target's operations compute in (dtype surprises:
    a float64 check of code that calls .float() inside can only resolve float32 precision)."""

    def __init__(self) -> None:
        self.dtypes: dict[str, str] = {}  # dtype -> first op seen computing in it
        try:
            from torch.utils._python_dispatch import TorchDispatchMode
        except ImportError:  # pragma: no cover - very old torch
            self.mode = None
            return
        observer = self

        class Mode(TorchDispatchMode):
            def __torch_dispatch__(self, func, types, args=(), kwargs=None):
                result = func(*args, **(kwargs or {}))
                for r in result if isinstance(result, (tuple, list)) else (result,):
                    if isinstance(r, torch.Tensor) and r.is_floating_point():
                        observer.dtypes.setdefault(dtype_name(r.dtype), str(func).split(".")[0])
                return result

        self.mode = Mode()


class Problem:
    def __init__(self, fn: Callable[..., Any], args: list[Any], var_names: list[str],
                 module: torch.nn.Module | None = None, seed: int = 0) -> None:
        self.fn = fn
        self.args = list(args)
        self.module = module
        self.seed = seed
        self.reseed = False  # the target draws random numbers: seed before every forward
        self.grad_enabled_fd = False  # the target needs autograd inside its forward
        self.observed_dtypes: dict[str, str] = {}
        self.vars: list[Var] = []
        self.constants: list[str] = []  # non-floating tensor arguments, named
        for i, a in enumerate(self.args):
            name = var_names[i] if i < len(var_names) else f"input{i}"
            if isinstance(a, torch.Tensor):
                if a.is_floating_point():
                    base = a.detach().clone()
                    self.args[i] = base
                    self.vars.append(Var(name, "input", base, position=i, scale=max(1.0, rms(base))))
                else:
                    self.constants.append(f"{name} ({dtype_name(a.dtype)})")
        if module is not None:
            for pname, p in module.named_parameters():
                if p.requires_grad and p.is_floating_point():
                    base = p.detach().clone()
                    self.vars.append(Var(pname, "parameter", base, param=p, scale=max(1.0, rms(base))))

    # -- calling -----------------------------------------------------------------------------

    def _call(self, args: list[Any]) -> Any:
        if self.reseed:
            torch.manual_seed(self.seed)
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
        torch.manual_seed(self.seed)
        state = torch.random.get_rng_state()
        observer = _DtypeObserver()
        with torch.enable_grad():
            if observer.mode is not None:
                try:
                    with observer.mode:
                        out = self.fn(*args)
                    self.observed_dtypes = observer.dtypes
                except Exception:
                    # Some code does not run under a dispatch mode; observing dtypes is optional.
                    torch.manual_seed(self.seed)
                    out = self.fn(*args)
            else:
                out = self.fn(*args)
        self.reseed = not torch.equal(state, torch.random.get_rng_state())
        return float_leaves(out), leaves

    def base_outputs(self) -> list[torch.Tensor]:
        """Outputs at the base point, evaluated the way every finite-difference point is."""
        return self._forward_no_graph(list(self.args))

    def outputs_at(self, var: Var, delta: torch.Tensor) -> list[torch.Tensor]:
        """Outputs with `var` moved to base + delta, no graph."""
        args = list(self.args)
        point = var.base + delta
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


def weighted_sum(us: list[torch.Tensor], outs: list[torch.Tensor]) -> float:
    """u·f accumulated in float64, whatever dtype f is in."""
    total = 0.0
    for u, o in zip(us, outs):
        total += float(torch.dot(u.reshape(-1), o.reshape(-1).to(torch.float64)))
    return total


def changed_norm(us: list[torch.Tensor], outs: list[torch.Tensor], base: list[torch.Tensor]) -> float:
    """‖u∘f‖₂ over the outputs that a perturbation actually changed: rounding noise in u·f comes
    only from those (perturbing one element of an elementwise function changes one output)."""
    total = 0.0
    for u, o, b in zip(us, outs, base):
        changed = (o != b).reshape(-1)
        if bool(changed.any()):
            w = u.reshape(-1)[changed] * b.reshape(-1)[changed].to(torch.float64)
            total += float(w.pow(2).sum())
    return math.sqrt(total)
