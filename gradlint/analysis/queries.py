"""Questions asked of abstract values: what several values say together (their framework,
dtype, size), whether a flag is a literal, which origins a parameter list holds.

Used by the interpreter and by the framework overlays alike.
"""

from __future__ import annotations

from typing import Iterable

import libcst as cst

from . import facts as F
from . import kinds as K

from .names import NOCONST
from .values import EMPTY, Val


def fw_of(vals: Iterable[Val]) -> str | None:
    """The framework of the first value that has one (NumPy does not count: mixing an array
    into a tensor computation leaves a tensor)."""
    for v in vals:
        fw = v.get(F.FW)
        if fw and fw != "np":
            return fw
    for o in (o for v in vals for o in v.live):
        if o.kind != K.ORIGIN_SYM:
            return o.framework
    return None


def is_torch_val(v: Val) -> bool:
    fw = v.get(F.FW)
    if fw is not None:
        return fw == "torch"
    return any(o.framework == "torch" for o in v.live)


# what a torch operation under no_grad is certainly given: tensors and numbers. A call of a model
# or function not followed may turn gradients back on inside (`torch.enable_grad()` in a forward)
_PLAIN_OPERANDS = frozenset({K.TENSOR, K.NUMBER, K.GRAD})


def no_grad_made(out: Val, vals: list[Val], grad_mode: str, region) -> Val:
    """`out` of a torch operation on plain tensors with gradients off (`grad_mode` not "on",
    turned off by `region`) has no grad_fn, whatever its inputs were: a tensor that a custom
    Function's backward unpacked, not known to require grad, included."""
    if grad_mode == "on" or out.kind != K.TENSOR or not vals or not is_torch_val(out) \
            or any(v.kind not in _PLAIN_OPERANDS for v in vals):
        return out
    return out.with_fact(F.NO_GRAD_MADE, (grad_mode, region))


def is_gradient(v: Val) -> bool:
    """`v` holds gradients: a `.grad` buffer, what autograd.grad/tape.gradient/jax.grad returned,
    or a value computed from either (a reduction, a method of one)."""
    return v.get(F.GRAD_OF) is not None or bool(v.get(F.GRAD_DERIVED)) or v.get(F.GRAD_RESULT) is not None


def computed_by_autograd(v: Val) -> bool:
    """`v` was computed by an operation autograd recorded (it has graph nodes): a non-leaf, whose
    `requires_grad` flag cannot change (GL310) and for which `requires_grad_()` is a no-op."""
    return bool(v.graphs)


def certainly_computed(v: Val) -> bool:
    """`v` is certainly a non-leaf computed from tensors that require grad: it has graph nodes,
    or (`v1 = v + 1`: an addition saves nothing, so it adds none) it has certain origins and is
    neither a leaf, a parameter nor a view of one."""
    if v.graphs:
        return True
    return v.kind in (K.TENSOR, None) and any(o.certain for o in v.live) and not (
        v.get(F.LEAF) or v.get(F.PARAM) or v.get(F.LEAF_VIEW) or v.get(F.RG))


def proven_non_leaf(v: Val) -> bool:
    """A torch tensor computed by a recorded operation from values that certainly require grad
    (graph nodes, every origin certain): not a leaf."""
    if v.get(F.LEAF) or v.get(F.PARAM) or not computed_by_autograd(v) or not v.live or v.kind != "tensor":
        return False
    return all(o.certain and not o.frozen for o in v.live) and v.get(F.FW) in (None, "torch")


def certainly_requires_grad(v: Val) -> bool:
    """`v` certainly requires grad: a tensor (or a list of tensors, `torch.cat([a, b], out=c)`)
    computed by a recorded operation from values that certainly require grad, or a leaf that
    certainly requires it (a parameter, `requires_grad=True`) and is not frozen."""
    if v.get(F.FW) not in (None, "torch") or any(o.framework != "torch" for o in v.live) or v.get(F.GRAD_OF) is not None:
        return False
    if v.kind in (K.LIST, K.TUPLE):
        return bool(v.graphs) and bool(v.live) and all(o.certain and not o.frozen for o in v.live)
    if proven_non_leaf(v):
        return True
    return bool(v.get(F.RG) or v.get(F.PARAM)) and bool(v.get(F.LEAF)) and any(o.certain and o.leaf and not o.frozen for o in v.live)


# values that are certainly not tensors: their `data` attribute is a field of their own
_NOT_TENSOR_KINDS = frozenset({K.MODULE, K.INSTANCE, K.OPTIMIZER, K.LIST, K.TUPLE, K.DICT, K.CONTAINER, K.STR, K.NUMBER})


def data_is_tensor_storage(v: Val) -> bool:
    """`v.data` is a tensor's storage, without its history (a cut), unless `v` is an object that
    is certainly not a tensor: a module or an agent keeping a rollout buffer as `self.data = []`
    holds a plain field there."""
    return v.kind not in _NOT_TENSOR_KINDS


def first_fact(vals: Iterable[Val | None], name: str):
    """The fact `name` of the first of `vals` that has it (a true value), or None: what a result
    inherits from whichever operand carries it (the staging jnp call, the sum of squares)."""
    return next((f for v in vals if v is not None and (f := v.get(name))), None)


def every_origin(v: Val | None) -> set:
    """Every origin a value was computed from, through gradient cuts too (a mask by value)."""
    return set(v.live) | {o for o, _ in v.cuts} if v is not None else set()


def dtype_of(vals: Iterable[Val]) -> str | None:
    """The dtype of an operation on `vals`: the widest float among them (type promotion)."""
    dts = {v.get(F.DTYPE) for v in vals if v.get(F.DTYPE)}
    if not dts:
        return None
    for pref in ("float64", "float32", "bfloat16", "float16"):
        if pref in dts:
            return pref
    return next(iter(dts))


def numel(vals: Iterable[Val]) -> int | None:
    best = None
    for v in vals:
        n = v.get(F.NUMEL)
        if n is None and v.get(F.SHAPE) is not None:
            n = 1
            for d in v.get(F.SHAPE):
                n *= d
        if n is not None and (best is None or n > best):
            best = n
    return best


def broadcast_shape(vals: list[Val]) -> tuple | None:
    shapes = [v.get(F.SHAPE) for v in vals if v.get(F.SHAPE) is not None]
    if not shapes:
        return None
    return max(shapes, key=lambda s: (len(s), s))


_DTYPE_WORDS = {
    "float64": "float64", "double": "float64", "float_": "float64", "float32": "float32", "single": "float32",
    "float16": "float16", "half": "float16", "bfloat16": "bfloat16", "bool": "bool", "bool_": "bool",
    "complex64": "complex64", "complex128": "complex128",
}


def dtype_named(v: Val | None) -> str | None:
    """The dtype an argument names: `jnp.float32`, `np.int32`, `tf.float64`, `"float32"`."""
    if v is None:
        return None
    word = v.get(F.CONST) if isinstance(v.get(F.CONST), str) else (v.get(F.QUAL) or "").rsplit(".", 1)[-1] if v.kind == K.REF else None
    if not word:
        return None
    if word.startswith(("int", "uint")) and word.rstrip("0123456789") in ("int", "uint"):
        return "int"
    return _DTYPE_WORDS.get(word)


def truthy(v: Val | None) -> bool | None:
    """True/False for literal flags, None for anything not known statically (absent: False)."""
    if v is None:
        return False
    c = v.get(F.CONST, NOCONST)
    if c is NOCONST:
        return None
    return bool(c)


def param_origins(params: Val) -> frozenset:
    """The origins a `params` argument (of an optimizer) holds: `model.parameters()`, a list of
    tensors, a list of param-group dicts."""
    origins = set(params.live)
    for item in params.get(F.ITEMS) or ():
        origins |= item.live
        if item.kind == K.DICT:
            origins |= item.live
    return frozenset(origins)


def module_origins(v: Val) -> frozenset:
    """The module and parameter origins `v` is made of: for a module of a class the analysis
    sees (the file's or a project module's), also those of its submodules and parameters as
    its methods set them (`self.fc = nn.Linear(...)` has an origin of its own)."""
    out: set = set()
    stack, seen = [v], set()
    while stack:
        cur = stack.pop()
        if id(cur) in seen:
            continue
        seen.add(id(cur))
        out.update(o for o in cur.live if o.kind in (K.ORIGIN_MODULE, K.ORIGIN_TENSOR))
        fields = cur.get(F.FIELDS)
        if isinstance(fields, dict):
            stack.extend(f for f in fields.values() if f.kind in (K.MODULE, K.TENSOR, K.PARAMS) or f.get(F.CLS) is not None)
    return frozenset(out)


def freeze(v: Val, frozen: bool) -> None:
    """requires_grad switched off (or back on) for everything `v` is made of (module_origins:
    `G.requires_grad_(False)` freezes `G.fc` too)."""
    for o in module_origins(v):
        o.frozen = frozen


def none_ness(v: Val) -> bool | None:
    """True: certainly None; False: certainly an object; None: unknown."""
    if v.kind == K.NONE:
        return True
    if v is EMPTY or v.kind is None:
        return None
    if v.kind in _OBJECT_KINDS:
        return False
    return None


_OBJECT_KINDS = frozenset(
    {
        K.TENSOR, K.TUPLE, K.LIST, K.DICT, K.MODULE, K.INSTANCE, K.OPTIMIZER,
        K.NUMBER, K.STR, K.GRAD, K.PARAMS, K.TAPE, K.FUNCTION, K.CLASS,
    }
)


def literal_dtype(node: cst.CSTNode | None, val: Val, default: str) -> str | None:
    """dtype a tensor gets from a Python literal: ints stay ints, floats become `default`."""
    if node is None:
        return val.get(F.DTYPE)
    if val.get(F.DTYPE):
        return val.get(F.DTYPE)
    kinds = set()

    def visit(n) -> None:
        if isinstance(n, cst.Integer):
            kinds.add("int")
        elif isinstance(n, cst.Float):
            kinds.add("float")
        elif isinstance(n, cst.Name) and n.value in ("True", "False"):
            kinds.add("bool")
        elif isinstance(n, cst.UnaryOperation):
            visit(n.expression)
        elif isinstance(n, (cst.List, cst.Tuple)):
            for e in n.elements:
                visit(e.value)
        else:
            kinds.add("other")

    visit(node)
    if kinds == {"int"}:
        return "int"
    if kinds == {"bool"}:
        return "bool"
    if "other" in kinds:
        return None
    return default
