"""A hand-written gradient compared with autograd, in ulps.

`--against G` names a function with the target's signature that returns the gradient of
sum(f(*inputs)) with respect to each floating-point input: one tensor when there is one
input, else a tuple with one entry per floating input (or per positional argument, None for the
others). For an elementwise f that is the elementwise derivative, e.g. -1/a**2 for 1/a.
"""

from __future__ import annotations

import math
from typing import Any

import torch

from .floats import dtype_name
from .localise import unravel
from .problem import Var


class AgainstError(Exception):
    """The hand-written gradient has the wrong type, count or shape."""


def align_gradients(result: Any, input_vars: list[Var], n_args: int) -> list[torch.Tensor | None]:
    if isinstance(result, torch.Tensor):
        items = [result]
    elif isinstance(result, (tuple, list)):
        items = list(result)
    else:
        raise AgainstError(f"the hand-written gradient returned {type(result).__name__}; expected a "
                           "tensor or a tuple of tensors (one per floating-point input)")
    if len(items) == len(input_vars):
        picked = items
    elif len(items) == n_args:
        picked = [items[v.position] for v in input_vars]
    else:
        raise AgainstError(f"the hand-written gradient returned {len(items)} value(s) for "
                           f"{len(input_vars)} floating-point input(s)")
    out: list[torch.Tensor | None] = []
    for var, g in zip(input_vars, picked):
        if g is None:
            out.append(None)
            continue
        g = torch.as_tensor(g)
        if tuple(g.shape) != tuple(var.base.shape):
            raise AgainstError(f"the hand-written gradient for {var.name} has shape {tuple(g.shape)}, "
                               f"the input has shape {tuple(var.base.shape)}")
        out.append(g.detach().to(var.base.dtype))
    return out


def ulps(diff: torch.Tensor, ref: torch.Tensor) -> torch.Tensor:
    """|diff| in units of the spacing of ref's dtype at |ref| (float64 result)."""
    mag = ref.abs()
    spacing = torch.nextafter(mag, torch.full_like(mag, math.inf)) - mag
    return diff.double().abs() / spacing.double()


def ulp_table(input_vars: list[Var], hand: list[torch.Tensor | None],
              auto: list[torch.Tensor | None]) -> list[dict[str, Any]]:
    rows = []
    for var, h, a in zip(input_vars, hand, auto):
        row: dict[str, Any] = {"name": var.name, "dtype": dtype_name(var.base.dtype)}
        if h is None or a is None:
            row["note"] = ("no hand-written gradient" if h is None else "autograd gives no gradient")
            rows.append(row)
            continue
        a = a.detach().to(h.dtype)
        diff = (h.double() - a.double()).abs()
        ref = torch.maximum(h.abs(), a.abs())
        u = ulps(diff, ref)
        j = int(diff.reshape(-1).argmax())
        k = int(u.reshape(-1).argmax())
        row.update({
            "max_abs_diff": float(diff.reshape(-1)[j]),
            "index": unravel(j, tuple(h.shape)),
            "hand_written": float(h.reshape(-1)[j]),
            "autograd": float(a.reshape(-1)[j]),
            "ulps_at_max_diff": float(u.reshape(-1)[j]),
            "max_ulps": float(u.reshape(-1)[k]),
            "max_ulps_index": unravel(k, tuple(h.shape)),
            "elements_differing": int((diff > 0).sum()),
            "elements": h.numel(),
        })
        rows.append(row)
    return rows
