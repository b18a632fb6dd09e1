"""The array vocabulary the frameworks share. PyTorch's method names are the lingua franca:
NumPy, TensorFlow and JAX arrays have the same `argmax`, `numpy()`, `item()`, `long()`, so
these tables serve every overlay (and the rules)."""

from __future__ import annotations

import libcst as cst

from ..facts import CONST, EXACT, Exact

# Operations whose output carries no useful gradient (zero almost everywhere or integer).
NONDIFF_FUNCS = frozenset(
    {
        "argmax", "argmin", "argsort", "round", "floor", "ceil", "sign", "trunc", "fix",
        "eq", "ne", "gt", "lt", "ge", "le", "greater", "less", "equal", "not_equal",
        "greater_equal", "less_equal", "isnan", "isinf", "isfinite", "logical_and",
        "logical_or", "logical_not", "logical_xor", "one_hot", "bucketize", "searchsorted",
        "heaviside", "nonzero", "count_nonzero", "rint", "unique", "floor_divide",
    }
)
# Tensor methods that cast to integer or boolean (gradient stops).
INT_CAST_METHODS = frozenset({"long", "int", "bool", "byte", "short", "char"})
FLOAT_CAST_METHODS = {"float": "float32", "double": "float64", "half": "float16", "bfloat16": "bfloat16"}

# Tensor methods that return something other than a tensor with history.
META_METHODS = frozenset(
    {
        "size", "dim", "numel", "nelement", "ndimension", "is_contiguous", "get_device",
        "element_size", "stride", "data_ptr", "storage_offset", "is_floating_point",
        "is_complex", "type", "__len__", "has_names", "is_set_to",
    }
)
META_ATTRS = frozenset(
    {
        "shape", "dtype", "device", "ndim", "is_leaf", "requires_grad", "grad_fn", "is_cuda",
        "layout", "names", "itemsize", "nbytes", "is_sparse", "is_quantized", "is_meta",
        "output_nr", "_version",
    }
)
# Conversions leaving the framework (hard cuts): method name -> cut kind.
HARD_CUT_METHODS = {"numpy": "numpy", "item": "item", "tolist": "tolist", "__array__": "numpy"}

# Reductions: their result has no batch dimension left.
REDUCTIONS = frozenset(
    {
        "sum", "mean", "norm", "dot", "trace", "logsumexp", "prod", "std", "var", "max", "min", "amax", "amin",
        "median", "nansum", "nanmean", "all", "any", "item", "count_nonzero", "dist", "vdot", "inner",
    }
)


# ------------------------------------------------------------------ exact zeros and infinities
# Factories whose every element is exactly zero (`zeros(3)`, `zeros_like(x)`, `torch.Tensor.new_zeros`).
ZERO_FACTORIES = frozenset({"zeros", "zeros_like", "new_zeros"})
# Library names of infinity: `math.inf`, `np.inf`, `jnp.inf`, `torch.inf`, `float("inf")`.
_INF_NAMES = frozenset({"inf", "Inf", "infty", "PINF", "NINF"})
_FLOAT_LITERAL = ("inf", "-inf", "+inf", "infinity", "-infinity")


def _scalar_special(e: cst.BaseExpression) -> tuple[bool, bool] | None:
    """(is zero, is inf) of a number literal as written; None: not a literal number."""
    if isinstance(e, cst.UnaryOperation) and isinstance(e.operator, (cst.Minus, cst.Plus)):
        return _scalar_special(e.expression)
    if isinstance(e, (cst.Integer, cst.Float)):
        try:
            return float(e.evaluated_value) == 0.0, False
        except (ValueError, OverflowError):
            return None
    if isinstance(e, cst.Attribute) and e.attr.value in _INF_NAMES:
        return False, True
    if isinstance(e, cst.Name) and e.value in ("inf", "infty"):
        return False, True  # `from math import inf`
    if (isinstance(e, cst.Call) and isinstance(e.func, cst.Name) and e.func.value == "float" and len(e.args) == 1
            and isinstance(e.args[0].value, cst.SimpleString)):
        text = str(e.args[0].value.evaluated_value).strip().lower()
        if text in _FLOAT_LITERAL:
            return False, True
    return None


def literal_exact(node: cst.BaseExpression | None, at: cst.CSTNode | None = None) -> Exact | None:
    """The exact zeros / infinities a literal array (`[3., 0., -5.]`, `((0, 1),)`,
    `[0.0, math.inf]`) holds as written; None when it holds none (or is not a literal)."""
    zero = inf = False
    stack = [node] if node is not None else []
    while stack:
        e = stack.pop()
        if isinstance(e, (cst.List, cst.Tuple)):
            stack.extend(el.value for el in e.elements)
            continue
        got = _scalar_special(e)
        if got is not None:
            zero, inf = zero or got[0], inf or got[1]
    return Exact(zero, inf, at if at is not None else node) if (zero or inf) else None


def factory_exact(last: str, arg_nodes: list, kw_nodes: dict, at: cst.CSTNode) -> Exact | None:
    """What an array factory call proves: `zeros(...)`/`zeros_like(x)` hold only zeros,
    `full(shape, 0.)` / `full_like(x, inf)` their fill value, `array([0., 1.])` its literal."""
    if last in ZERO_FACTORIES:
        return Exact(True, False, at)
    if last in ("full", "full_like", "new_full"):
        fill = kw_nodes.get("fill_value")
        if fill is None and len(arg_nodes) > 1:
            fill = arg_nodes[1]
        got = _scalar_special(fill) if fill is not None else None
        return Exact(got[0], got[1], at) if got and (got[0] or got[1]) else None
    if last in ("array", "asarray", "tensor", "as_tensor", "constant", "convert_to_tensor", "Tensor", "FloatTensor",
                "DoubleTensor") and arg_nodes:
        return literal_exact(arg_nodes[0], at)
    return None


def product_exact(op: str, vals: list, at: cst.CSTNode) -> Exact | None:
    """A product (or a quotient's numerator) with a value that may be exactly zero may be
    exactly zero: `jnp.array((0, 1)) * x`, `a * jnp.zeros(2)`, `0.0 * x`. Sums do not keep it."""
    if op not in ("*", "/") or len(vals) != 2:
        return None
    sides = vals if op == "*" else vals[:1]
    for v in sides:
        if v is None:
            continue
        ex = v.get(EXACT)
        if ex is not None and ex.zero:
            return Exact(True, False, ex.node)
        c = v.get(CONST)
        if isinstance(c, (int, float)) and not isinstance(c, bool) and c == 0:
            return Exact(True, False, at)  # `0.0 * x`: the product is the evidence
    return None
