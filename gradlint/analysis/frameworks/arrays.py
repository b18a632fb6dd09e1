"""The array vocabulary the frameworks share. PyTorch's method names are the lingua franca:
NumPy, TensorFlow and JAX arrays have the same `argmax`, `numpy()`, `item()`, `long()`, so
these tables serve every overlay (and the rules)."""

from __future__ import annotations

import libcst as cst

from ..facts import CONST, EXACT, GUARDED, MATMUL, PICKED, SQUARES, Exact
from ..queries import every_origin, first_fact
from ..walk import callee_last

# Operations whose output carries no useful gradient (zero almost everywhere or integer).
NONDIFF_FUNCS = frozenset(
    {
        "argmax", "argmin", "argsort", "round", "floor", "ceil", "sign", "trunc", "fix",
        "eq", "ne", "gt", "lt", "ge", "le", "greater", "less", "equal", "not_equal",
        "greater_equal", "less_equal", "isnan", "isinf", "isfinite", "logical_and",
        "logical_or", "logical_not", "logical_xor", "one_hot", "bucketize", "searchsorted",
        "heaviside", "nonzero", "count_nonzero", "rint", "unique", "floor_divide",
        # counts per bin: no gradient (torch raises "the derivative for 'histc' is not implemented")
        "histc", "histogram", "histogramdd", "histogram_fixed_width", "bincount",
    }
)
# Samplers that draw from probabilities: name -> (position, keyword) of the probabilities
# (`Categorical(probs)`, `torch.multinomial(input, n)`, `p.multinomial(n)`, `np.random.choice(n, p=...)`)
PROB_SAMPLERS = {
    "Categorical": (0, "probs"),
    "OneHotCategorical": (0, "probs"),
    "Bernoulli": (0, "probs"),
    "multinomial": (0, "input"),
    "choice": (3, "p"),
}
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
        # NumPy's and JAX's element count (a torch tensor's `size` is a method, called as one)
        "size",
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
    all_zero = True
    stack = [node] if node is not None else []
    while stack:
        e = stack.pop()
        if isinstance(e, (cst.List, cst.Tuple)):
            stack.extend(el.value for el in e.elements)
            continue
        got = _scalar_special(e)
        if got is not None:
            zero, inf = zero or got[0], inf or got[1]
        all_zero = all_zero and got is not None and got[0]
    return Exact(zero, inf, at if at is not None else node, all_zero=zero and all_zero) if (zero or inf) else None


def factory_exact(last: str, arg_nodes: list, kw_nodes: dict, at: cst.CSTNode) -> Exact | None:
    """What an array factory call proves: `zeros(...)`/`zeros_like(x)` hold only zeros,
    `full(shape, 0.)` / `full_like(x, inf)` their fill value, `array([0., 1.])` its literal."""
    if last in ZERO_FACTORIES:
        return Exact(True, False, at, all_zero=True)
    if last in ("full", "full_like", "new_full"):
        fill = kw_nodes.get("fill_value")
        if fill is None and len(arg_nodes) > 1:
            fill = arg_nodes[1]
        got = _scalar_special(fill) if fill is not None else None
        return Exact(got[0], got[1], at, all_zero=got[0]) if got and (got[0] or got[1]) else None
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
            return Exact(True, False, ex.node, all_zero=ex.all_zero)
        c = v.get(CONST)
        if isinstance(c, (int, float)) and not isinstance(c, bool) and c == 0:
            return Exact(True, False, at, all_zero=True)  # `0.0 * x`: the product is the evidence
    return None


# ------------------------------------------------------------------ sums of squares
# A sum of squares is exactly 0 where its vector is (identical pairs, a constant feature, a
# perfect prediction), and d sqrt(u)/du is infinite there: GL408 asks this fact of a square
# root's argument, however it was spelled and wherever it was computed.
SQUARE_SUMS = frozenset({"sum", "mean", "nansum", "nanmean", "reduce_sum", "reduce_mean"})
SQUARE_MAKERS = frozenset({"square", "squared_difference", "var", "nanvar", "reduce_variance", "mse_loss", "mean_squared_error"})
# operations that keep 0 where it was: clamping from below at 0 (a rounding guard), abs, relu
SQUARE_KEEPERS = frozenset({"clamp", "clip", "clamp_min", "relu", "abs", "maximum"})


def squares_after_call(name: str | None, inputs: list, kwargs: dict, at: cst.CSTNode):
    """The SQUARES fact of a call's result (the node that proves it), or None. `inputs`: the
    receiver of a method then its arguments, or a function's arguments."""
    if name is None:
        return None
    if name in SQUARE_MAKERS:
        return at
    if name in ("pow", "power", "float_power") and len(inputs) >= 2 and inputs[1].get(CONST) == 2:
        return at
    if name in SELF_DOTS and _dot_with_itself(at):
        return at  # `dot(v, v)`, `K.batch_dot(l1, l1, axes)`, `v.dot(v)`: a squared norm
    if name in MATMULS:
        # `matmul(band_matrix, norm(spec) ** 2)`: weighted sums of squares, 0 wherever the
        # vector is (whatever the weights)
        return first_fact(inputs, SQUARES)
    first = inputs[0] if inputs else None
    if first is None or not first.get(SQUARES):
        return None
    if name == "add" and len(inputs) == 2 and "alpha" not in kwargs:
        # `tf.add(tf.square(dx), tf.square(dy))`, `torch.add(a ** 2, b ** 2)`: `+` as a call
        return at if inputs[1].get(SQUARES) else None
    if name in SQUARE_SUMS:
        return first.get(SQUARES)
    if name in SQUARE_KEEPERS:
        low = kwargs.get("min")
        if low is None and name in ("clamp", "clip", "clamp_min", "maximum") and len(inputs) >= 2:
            low = inputs[1]
        c = low.get(CONST) if low is not None else 0
        if c == 0 or low is None and name in ("relu", "abs"):
            return first.get(SQUARES)  # clamp(min=0): still 0 where it was; clamp(min=1e-12) is a guard
    return None


# products that are a squared norm when both operands are the same vector
SELF_DOTS = frozenset({"dot", "vdot", "inner", "batch_dot"})


def _dot_with_itself(at: cst.CSTNode) -> bool:
    """`dot(v, v)` or `v.dot(v)`: the two operands are the same expression."""
    if not isinstance(at, cst.Call):
        return False
    args = [a.value for a in at.args if a.keyword is None]
    if len(args) >= 2:
        return args[0].deep_equals(args[1])
    return len(args) == 1 and isinstance(at.func, cst.Attribute) and at.func.value.deep_equals(args[0])


def _additive_terms(node: cst.BaseExpression, sign: int = 1) -> list[tuple[int, cst.BaseExpression]]:
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, (cst.Add, cst.Subtract)):
        right = -sign if isinstance(node.operator, cst.Subtract) else sign
        return _additive_terms(node.left, sign) + _additive_terms(node.right, right)
    return [(sign, node)]


MATMULS = frozenset({"mm", "matmul", "bmm", "einsum", "inner", "tensordot", "dot"})
# selections by a computed index (PICKED): `p.gather(1, a)`, `torch.take_along_dim`, NumPy's and
# JAX's `take_along_axis`, TensorFlow's `gather`/`gather_nd` (a subscript `p[a]` is read by the
# interpreter: `picks_by_index`)
PICKERS = frozenset({"gather", "take_along_dim", "take_along_axis", "gather_nd", "batch_gather"})


def picks_by_index(node: cst.Subscript) -> bool:
    """`p[a]`, `p[range(n), actions]`, `p[mask]`: an index computed from values, not a constant
    position (`p[0]`, `p[-1]`), a slice, `None` or `...`."""
    for el in node.slice:
        sl = el.slice
        if not isinstance(sl, cst.Index):
            continue
        v = sl.value
        if isinstance(v, cst.UnaryOperation):
            v = v.expression
        if isinstance(v, (cst.Integer, cst.SimpleString, cst.Ellipsis)) or (isinstance(v, cst.Name) and v.value == "None"):
            continue
        return True
    return False


def _twice_of(node: cst.BaseExpression) -> cst.BaseExpression | None:
    """x of `2 * x`, `2.0 * x`, `x * 2`."""
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Multiply):
        for two, x in ((node.left, node.right), (node.right, node.left)):
            if isinstance(two, (cst.Integer, cst.Float)) and float(two.evaluated_value) == 2.0:
                return x
    return None


def squares_after_binop(op: str, vals: list, node: cst.CSTNode, value_of):
    """The SQUARES fact of `a ** 2`, `a * a`, a sum of squares (`dx ** 2 + dy ** 2`) and the
    Gram expansion of a squared distance (`sq_a + sq_b - 2 * a @ b.T`), or None. `value_of`
    gives the value of a term of the expression (a name's binding), or None."""
    if not isinstance(node, cst.BinaryOperation):
        return None
    if op == "**" and isinstance(node.right, (cst.Integer, cst.Float)) and float(node.right.evaluated_value) == 2.0:
        return node
    if op == "*" and cst.Module(body=[]).code_for_node(node.left) == cst.Module(body=[]).code_for_node(node.right):
        return node
    if op == "@":  # `band @ spec ** 2`: a weighted sum of squares (as `matmul`)
        return first_fact(vals, SQUARES)
    if op == "*" and len(vals) == 2 and all(v is not None and v.get(SQUARES) for v in vals):
        return node  # `|a|^2 * |b|^2` (a cosine's denominator): 0 wherever either vector is
    if op in ("+", "-"):
        if op == "+" and all(v.get(SQUARES) for v in vals):
            return node
        terms = _additive_terms(node)
        negative = [t for sign, t in terms if sign < 0]
        if len(terms) == 3 and len(negative) == 1 and _gram_cross_term(negative[0], value_of):
            return node  # |x|^2 + |y|^2 - 2 x.y (not a second difference f(x+h) + f(x-h) - 2 f(x))
    return None


def _matmul_syntax(node: cst.BaseExpression) -> bool:
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.MatrixMultiply):
        return True
    if isinstance(node, cst.Call):
        f = node.func
        name = f.attr.value if isinstance(f, cst.Attribute) else f.value if isinstance(f, cst.Name) else None
        return name in MATMULS
    return False


def _gram_cross_term(term: cst.BaseExpression, value_of) -> bool:
    """`2 * x @ y.T` (parsed `(2 * x) @ y.T`), `2 * torch.mm(x, y.t())`, `2.0 * dot` with `dot` a
    matrix product."""
    if isinstance(term, cst.BinaryOperation) and isinstance(term.operator, cst.MatrixMultiply):
        return _twice_of(term.left) is not None
    cross = _twice_of(term)
    if cross is None:
        return False
    if _matmul_syntax(cross):
        return True
    v = value_of(cross)
    return v is not None and v.get(MATMUL) is not None


# ------------------------------------------------------------------ guards against zero
def epsilon_like(node: cst.CSTNode) -> bool:
    """A literal number, or a name that says it is a small positive constant (`eps`,
    `self.epsilon`, `tiny`, `delta`)."""
    if isinstance(node, (cst.Float, cst.Integer)):
        return True
    if isinstance(node, cst.Name):
        text = node.value
    elif isinstance(node, cst.Attribute):
        text = node.attr.value
    else:
        return False
    low = text.lower()
    return "eps" in low or low.endswith(("epsilon", "tiny", "delta"))


def guarded_after_binop(op: str, vals: list, node: cst.CSTNode):
    """`u + 1e-8`, `eps + u`: GUARDED (the node), or None."""
    if op != "+" or not isinstance(node, cst.BinaryOperation):
        return None
    for side, v in ((node.left, vals[0]), (node.right, vals[1])):
        c = v.get(CONST)
        if isinstance(c, (int, float)) and not isinstance(c, bool) and c > 0 or epsilon_like(side) and c is None:
            return node
    return None


def _const_number(v) -> float | int | None:
    c = v.get(CONST) if v is not None else None
    return c if isinstance(c, (int, float)) and not isinstance(c, bool) else None


def _lower_bound(inputs: list, kwargs: dict):
    """The constant lower bound of `clamp(u, min=...)`, `clip(u, lo, hi)`, `u.clamp_min(lo)`,
    `maximum(u, lo)` (the keyword, else the second input), or None."""
    low = kwargs.get("min", kwargs.get("a_min", kwargs.get("clip_value_min")))
    if low is None and len(inputs) >= 2:
        low = inputs[1]
    return _const_number(low)


def guarded_after_call(name: str | None, inputs: list, kwargs: dict, at: cst.CSTNode):
    """`clamp(u, min=1e-12)`, `u.clamp_min(eps)`, `clip(u, 1e-6, None)`: GUARDED (the call), or None."""
    if name not in ("clamp", "clip", "clamp_min", "maximum", "clip_by_value"):
        return None
    c = _lower_bound(inputs, kwargs)
    return at if c is not None and c > 0 else None


def _nonzero_branch(node: cst.CSTNode, v) -> bool:
    """A value certainly away from 0: a nonzero literal, an epsilon, `ones_like(x)`, a guarded value."""
    c = _const_number(v)
    if c is not None:
        return c != 0
    if isinstance(node, cst.UnaryOperation):
        node = node.expression
    if isinstance(node, (cst.Integer, cst.Float)) or epsilon_like(node):
        return True
    if isinstance(node, cst.Call) and callee_last(node) in ("ones_like", "ones"):
        return True
    return v is not None and v.get(GUARDED) is not None


def guarded_after_where(name: str | None, inputs: list, at: cst.CSTNode):
    """`where(is_zero, ones_like(x), x)`, `where(x > 0, x, 1.0)`: a where whose condition tests
    the data it selects and whose other branch is away from 0 — the first half of the
    double-where idiom, written to keep the zeros out of what follows (a sqrt, a norm, a log).
    GUARDED (the call), or None. `where(x > 0, x, 0.0)` keeps zeros and is not a guard."""
    if name != "where" or len(inputs) != 3 or not isinstance(at, cst.Call) or len(at.args) != 3:
        return None
    cond, a, b = inputs
    cond_origins = every_origin(cond)
    if not cond_origins:
        return None
    nodes = [arg.value for arg in at.args]
    for data, other, other_node in ((a, b, nodes[2]), (b, a, nodes[1])):
        if data is not None and set(data.live) & cond_origins and _nonzero_branch(other_node, other):
            return at
    return None


# ------------------------------------------------------------------ exact zeros of a floor at 0
# the JAX calls that floor their input at a constant (floor_exact)
FLOOR_CALLS = frozenset({"clip", "clamp", "maximum", "max"})


def floor_exact(fw: str | None, name: str | None, inputs: list, kwargs: dict, at: cst.CSTNode):
    """`jnp.maximum(x, 0)`, `jnp.clip(x, 0)`, `x.clip(min=0)`, `lax.max(x, 0.)` in JAX: exactly 0
    wherever the input is below 0, and their derivative there is a *product* with 0, so an
    operation whose derivative is infinite at 0 after it (sqrt, a fractional power) gives
    0 * inf = NaN for every negative input (checked on jax 0.10: [nan, inf, 0.35] for
    grad(sum(sqrt(maximum(x, 0))))([-1, 0, 2])). An Exact, proven by the call.

    Not a ReLU (jax.nn.relu, torch's relu and TensorFlow's mask the cotangent: 0, not NaN) and
    not torch's clamp/maximum or tf.maximum (they select the cotangent too: inf only for an
    input exactly 0, which the data does not prove)."""
    if fw != "jax" or name not in FLOOR_CALLS:
        return None
    if name in ("maximum", "max"):
        floor = any(_const_number(v) == 0 for v in inputs[:2])
    elif name == "clamp":  # lax.clamp(min, x, max)
        floor = bool(inputs) and _const_number(inputs[0]) == 0
    else:
        floor = _lower_bound(inputs, kwargs) == 0
    return Exact(True, False, at) if floor else None


def facts_after_call(name: str | None, fw: str | None, inputs: list, kwargs: dict, at: cst.CSTNode,
                     mse_module: bool = False) -> dict:
    """What the numerics rules ask of a call's result however it is spelled: a sum of squares
    (or an MSELoss module's output, `mse_module`), a matrix product, a value kept away from 0,
    entries picked by an index, an exact floor. `inputs`: the receiver of a method then its
    arguments; `fw`: the framework of the inputs or of the callee's module."""
    facts: dict = {}
    squares = at if mse_module else squares_after_call(name, inputs, kwargs, at)
    if squares is not None:
        facts[SQUARES] = squares
    elif name in MATMULS:
        facts[MATMUL] = at
    guarded = guarded_after_call(name, inputs, kwargs, at) or guarded_after_where(name, inputs, at)
    if guarded is not None:
        facts[GUARDED] = guarded
    if name in PICKERS:
        facts[PICKED] = at
    floor = floor_exact(fw, name, inputs, kwargs, at)
    if floor is not None:
        facts[EXACT] = floor
    return facts
