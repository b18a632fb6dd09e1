"""Queries over the analysis that several rules share (kept here so rules stay declarative)."""

from __future__ import annotations

from typing import Iterable

import libcst as cst

from ..analysis import facts as F
from ..analysis.events import DiffEvent
from ..analysis.values import Cut, Origin, Val

TORCH_DIFF = frozenset({"backward", "autograd_grad", "lightning"})
TORCH_GRAPH_DIFF = frozenset({"backward", "autograd_grad"})  # written in the code (not Lightning's)
HARD_CONVERSIONS = frozenset({"numpy", "item", "tolist", "float", "int", "bool", "np_call", "math_call", "predict"})
SOFT_DETACH = frozenset({"detach", "data"})
NO_GRAD = frozenset({"no_grad", "inference"})
NONDIFF = frozenset(
    {
        "argmax", "argmin", "argsort", "round", "floor", "ceil", "sign", "trunc", "fix", "rint",
        "compare", "int_cast", "eq", "ne", "gt", "lt", "ge", "le", "greater", "less", "equal",
        "not_equal", "greater_equal", "less_equal", "one_hot", "bucketize", "searchsorted",
        "heaviside", "floor_divide", "logical_and", "logical_or", "logical_not", "isnan",
        "isinf", "isfinite", "nonzero", "count_nonzero", "unique",
    }
)


def origin_name(o: Origin) -> str:
    if o.label == "self" and o.kind == "module":
        return "the module's parameters"
    if o.label:
        return f"`{o.label}`"
    return {
        "module": "the model",
        "tensor": "the tensor that requires grad",
        "tfvar": "the tf.Variable",
        "watched": "the watched tensor",
        "jaxarg": "the differentiated argument",
        "kerasout": "the model output",
    }.get(o.kind, "the trainable value")


def certain_cuts(target: Val, kinds: Iterable[str] | None = None, framework: str | None = None) -> list[tuple[Origin, Cut]]:
    """(origin, cut) pairs on the target whose origin is certainly trainable."""
    out = []
    ks = frozenset(kinds) if kinds is not None else None
    for o, c in target.cuts:
        if not o.certain:
            continue
        if ks is not None and c.kind not in ks:
            continue
        if framework is not None and o.framework != framework and not (framework == "tf" and o.kind == "kerasout"):
            continue
        out.append((o, c))
    # frozenset order depends on object ids: sort so messages are reproducible
    out.sort(key=lambda oc: (oc[0].seq, oc[1].seq))
    return out


def starved(target: Val) -> dict[Origin, list[Cut]]:
    """Origins the target depends on *only* through gradient-stopping operations."""
    res: dict[Origin, list[Cut]] = {}
    live = target.live
    for o, c in target.sorted_cuts():
        if o in live or not o.certain:
            continue
        res.setdefault(o, []).append(c)
    return res


def source_items(v: Val | None) -> list[Val]:
    if v is None:
        return []
    items = v.get(F.ITEMS)
    if items:
        return list(items)
    return [v]


_MODULE_ALIASES = frozenset({"np", "numpy", "onp", "torch", "T", "tf", "jnp", "jax", "F", "nn", "K", "math", "keras", "lax", "ops"})


def call_name(node: cst.CSTNode) -> str:
    """A short display name for a call's callee: `np.mean`, `.numpy()`, `float()`."""
    if isinstance(node, cst.Call):
        f = node.func
        if isinstance(f, cst.Attribute):
            base = f.value
            if isinstance(base, cst.Name):
                if base.value in _MODULE_ALIASES:
                    return f"{base.value}.{f.attr.value}"
                return f"{base.value}.{f.attr.value}()"
            return f".{f.attr.value}()"
        if isinstance(f, cst.Name):
            return f"{f.value}()"
    if isinstance(node, cst.Attribute):
        return f".{node.attr.value}"
    return "this operation"


def from_earlier_iteration(g, ctx) -> bool:
    """Was graph node `g` created inside one of the loops of `ctx`, in an earlier iteration?
    (A node created before the loop is shared by all iterations; one created in iteration 0
    and still reachable in iteration 1 was *carried* across.)"""
    loops_key = g[1][0]
    current = {id(n): i for n, i in ctx.loops}
    for lid, i in loops_key:
        j = current.get(lid)
        if j is not None and i < j:
            return True
    return False


def diff_phrase(ev: DiffEvent, line) -> str:
    """How a message names the place where something is differentiated."""
    if ev.kind == "lightning":
        return "the loss `training_step` returns (Lightning calls backward() on it)"
    if ev.kind == "keras":
        return "this Keras loss"
    if ev.kind == "jax":
        return "the value returned to jax.grad"
    return f"the loss differentiated on line {line(ev.node)}"
