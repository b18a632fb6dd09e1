"""GL8xx singular points and non-differentiable operations: values whose gradient is NaN/inf at
a point the data reaches, and layers or losses whose output depends on the model only through
a piecewise-constant operation.

The NaN traps that share GL4xx's machinery (`where`, `sqrt` of a sum of squares, `log` of a
softmax, the non-differentiable op on a differentiated path) stay in precision.py; this module
holds the ones that need their own reading of a function body.
"""

from __future__ import annotations

import re

import libcst as cst

from ..analysis import facts as F
from ..analysis.events import CallEvent, DiffEvent
from ..analysis.frameworks.arrays import INT_CAST_METHODS, META_ATTRS, NONDIFF_FUNCS
from ..analysis.frameworks.tensorflow import TF_INT_DTYPES, TF_NO_GRADIENT_FUNCS
from ..analysis.names import dotted_name
from ..diagnostics import Severity
from .base import Family, Invalid, Rule
from .precision import _SANITIZERS, _FlowsToLoss, _func_last, _has_additive_const, xlogx_product

FAMILY = Family("GL8", "singular points and non-differentiable operations")


# ------------------------------------------------------------------ dependence in one body
class _Dep:
    """How an expression depends on a function's inputs: `reached` (at all), `smooth` (by some
    path without a piecewise-constant operation), and `site` (the first such operation met on
    a path from the inputs)."""

    __slots__ = ("reached", "smooth", "site")

    def __init__(self, reached: bool = False, smooth: bool = False, site: cst.CSTNode | None = None) -> None:
        self.reached = reached
        self.smooth = smooth
        self.site = site

    def join(self, other: "_Dep") -> "_Dep":
        return _Dep(self.reached or other.reached, self.smooth or other.smooth, self.site or other.site)


_NONE = _Dep()


def _int_dtype(node: cst.BaseExpression | None) -> bool:
    """`tf.int32`, `'int64'`, `"bool"`, `tf.bool`: an integer or boolean dtype."""
    if node is None:
        return False
    if isinstance(node, cst.SimpleString):
        return node.evaluated_value in TF_INT_DTYPES
    name = dotted_name(node) if isinstance(node, (cst.Name, cst.Attribute)) else None
    return name is not None and name.rsplit(".", 1)[-1] in TF_INT_DTYPES


def _piecewise_constant(call: cst.Call) -> bool:
    """round/argmax/comparison functions, integer casts, and functions without a gradient."""
    name = _func_last(call)
    if name in NONDIFF_FUNCS or name in TF_NO_GRADIENT_FUNCS:
        return True
    if name in INT_CAST_METHODS and isinstance(call.func, cst.Attribute) and not call.args:
        return True  # `x.long()`
    if name == "cast":
        dtype = next((a.value for a in call.args if a.keyword is not None and a.keyword.value == "dtype"), None)
        if dtype is None and len(call.args) > 1 and call.args[1].keyword is None:
            dtype = call.args[1].value
        return _int_dtype(dtype)
    return False


class _Body:
    """Reads one function body in order: which names depend on the inputs, and how."""

    def __init__(self, inputs: set[str]) -> None:
        self.env: dict[str, _Dep] = {n: _Dep(True, True) for n in inputs}
        self.returned = _NONE

    def expr(self, e: cst.CSTNode) -> _Dep:
        if isinstance(e, cst.Name):
            return self.env.get(e.value, _NONE)
        if isinstance(e, cst.Call):
            dep = _NONE
            if isinstance(e.func, cst.Attribute):
                dep = self.expr(e.func.value)  # `x.round()`: the receiver is an operand
            for a in e.args:
                dep = dep.join(self.expr(a.value))
            if dep.reached and _piecewise_constant(e):
                return _Dep(True, False, dep.site or e)
            return dep
        if isinstance(e, cst.Comparison):
            dep = self.expr(e.left)
            for c in e.comparisons:
                dep = dep.join(self.expr(c.comparator))
            return _Dep(True, False, dep.site or e) if dep.reached else _NONE
        if isinstance(e, (cst.BinaryOperation, cst.BooleanOperation)):
            return self.expr(e.left).join(self.expr(e.right))
        if isinstance(e, cst.UnaryOperation):
            return self.expr(e.expression)
        if isinstance(e, cst.Attribute):
            return _NONE if e.attr.value in META_ATTRS else self.expr(e.value)  # `x.shape` is not x
        if isinstance(e, cst.Subscript):
            return self.expr(e.value)
        if isinstance(e, (cst.Tuple, cst.List)):
            dep = _NONE
            for el in e.elements:
                dep = dep.join(self.expr(el.value))
            return dep
        if isinstance(e, cst.IfExp):
            return self.expr(e.body).join(self.expr(e.orelse))
        return _NONE

    def bind(self, target: cst.BaseExpression, dep: _Dep, join: bool) -> None:
        if isinstance(target, cst.Name):
            old = self.env.get(target.value)
            self.env[target.value] = old.join(dep) if join and old is not None else dep
        elif isinstance(target, (cst.Tuple, cst.List)):
            for el in target.elements:
                self.bind(el.value, dep, join)

    def block(self, stmts, join: bool = False) -> None:
        for st in stmts:
            if isinstance(st, cst.SimpleStatementLine):
                for small in st.body:
                    if isinstance(small, cst.Assign):
                        dep = self.expr(small.value)
                        for t in small.targets:
                            self.bind(t.target, dep, join)
                    elif isinstance(small, cst.AugAssign):
                        self.bind(small.target, self.expr(small.target).join(self.expr(small.value)), join)
                    elif isinstance(small, cst.Return) and small.value is not None:
                        self.returned = self.returned.join(self.expr(small.value))
            elif isinstance(st, cst.If):
                # a name assigned in a branch keeps what it had on the other path too
                self.block(st.body.body, join=True)
                if st.orelse is not None:
                    self.block(st.orelse.body.body if isinstance(st.orelse, cst.Else) else [st.orelse], join=True)
            elif isinstance(st, (cst.For, cst.While, cst.With, cst.Try)):
                self.block(st.body.body, join=True)


def _only_through_piecewise_constant(fn: cst.CSTNode, inputs: set[str]) -> cst.CSTNode | None:
    """The piecewise-constant operation through which alone the function's result depends on
    `inputs` (None when a smooth path exists, or the result does not depend on them)."""
    body = _Body(inputs)
    if isinstance(fn, cst.Lambda):
        body.returned = body.expr(fn.body)
    elif isinstance(fn, cst.FunctionDef) and isinstance(fn.body, cst.IndentedBlock):
        body.block(fn.body.body)
    else:
        return None
    r = body.returned
    return r.site if r.reached and not r.smooth else None


def _param_names(fn: cst.CSTNode) -> list[str]:
    params = getattr(fn, "params", None)
    if not isinstance(params, cst.Parameters):
        return []
    return [p.name.value for p in (*params.posonly_params, *params.params) if p.name.value != "self"]


_TRAINED = re.compile(r"\.(?:fit|fit_generator|train_on_batch)\(|\.compile\([^)]*\bloss\s*=|GradientTape")


class KerasLambdaNonDifferentiable(Rule):
    code = "GL801"
    message = "a Keras Lambda layer whose output depends on its input only through round/argmax/a comparison/an integer cast/py_func: no gradient flows back through it"
    severity = Severity.WARNING
    docs = "https://keras.io/api/layers/core_layers/lambda/"
    triggers = ("Lambda",)
    chunk_triggers = ("Lambda",)
    frameworks = ("tf",)
    rationale = """
        A `Lambda` layer is differentiated like any other layer: Keras backpropagates through
        the function it wraps. When that function's result depends on its input only through
        a piecewise-constant operation — `K.round`, `tf.argmax`, `K.one_hot(K.argmax(x))`, a
        comparison, `K.cast(x, 'int32')` — or through `tf.py_func`/`tf.numpy_function`, which
        register no gradient, every layer before it gets a zero or missing gradient: `fit()`
        stops with "No gradients provided for any variable" / "None values not supported", or
        trains nothing before the layer.

        A mask multiplied into a differentiable value (`x * K.cast(x > 0, 'float32')`) keeps a
        smooth path and is not flagged.

        Instead: keep the hard operation out of the trained model (apply `argmax`/`round` to
        `model.predict(...)`, or build a separate inference model), use a smooth surrogate
        (softmax, sigmoid with a temperature), or a straight-through estimator
        `x + K.stop_gradient(K.round(x) - x)`; `tf.py_function` instead of `tf.py_func`.
    """
    invalid = [
        Invalid(
            """
            import tensorflow as tf
            from tensorflow.keras.layers import Dense, Input, Lambda
            from tensorflow.keras.models import Model
            inp = Input(shape=(8,))
            scores = Dense(3)(inp)
            out = Lambda(lambda q: tf.math.argmax(q, axis=-1))(scores)
            model = Model(inp, out)
            model.compile(optimizer="sgd", loss="mae")
            """,
            line=6,
        ),
        Invalid(
            """
            from keras import backend as K
            from keras.layers import Input, Dense, Lambda
            from keras.models import Model
            def binarize(x):
                hard = K.round(K.clip(x, 0.0, 1.0))
                return hard
            inp = Input(shape=(16,))
            out = Lambda(binarize)(Dense(1, activation="sigmoid")(inp))
            model = Model(inp, out)
            model.compile(loss="mse", optimizer="adam")
            """,
            line=5,
        ),
    ]
    valid = [
        """
        from keras import backend as K
        from keras.layers import Input, Dense, Lambda
        from keras.models import Model
        inp = Input(shape=(16,))
        h = Dense(8)(inp)
        gated = Lambda(lambda x: x * K.cast(x > 0, "float32"))(h)
        st = Lambda(lambda x: x + K.stop_gradient(K.round(x) - x))(gated)
        model = Model(inp, Dense(1)(st))
        model.compile(loss="mse", optimizer="adam")
        """
    ]

    # every call: under `from keras.layers import *` the callee is unresolved and the event has
    # no name; the first test below is all most calls cost
    call_names = None

    def on_call(self, ev: CallEvent) -> None:
        if ev.name != "Lambda" if ev.qual is not None else _func_last(ev.node) != "Lambda":
            return  # resolved: its real name (`Lambda as L`); unresolved (a star import): as written
        if ev.qual is not None and not (ev.qual.endswith(".Lambda") and ("keras" in ev.qual or ev.qual.startswith("tensorflow."))):
            return
        if ev.qual is None and "keras" not in self.ctx.code_text:
            return  # a star import: the file must at least be Keras code
        if not _TRAINED.search(self.ctx.code_text):
            return  # an inference-only model: a hard output is what it is for
        fn_node = ev.arg_node(0, "function")
        if not isinstance(fn_node, cst.Lambda):
            fnval = ev.arg(0, "function")
            fn = fnval.get(F.FN) if fnval is not None else None
            fn_node = getattr(fn, "node", None)
        if not isinstance(fn_node, (cst.Lambda, cst.FunctionDef)):
            return
        inputs = set(_param_names(fn_node))
        site = _only_through_piecewise_constant(fn_node, inputs) if inputs else None
        if site is None:
            return
        what = f"`{_func_last(site)}`" if isinstance(site, cst.Call) else "a comparison"
        self.report(
            site,
            f"the Lambda layer's output depends on its input only through {what}, which has a zero or no gradient: "
            f"fit() finds no gradient for the layers before it (\"No gradients provided\") or trains nothing there; "
            f"apply it to model.predict(...) outside the trained model, use a smooth surrogate, or a straight-through "
            f"estimator `x + K.stop_gradient(K.round(x) - x)`",
        )


# ------------------------------------------------------------------ x * log(x)

class XLogXAtZero(_FlowsToLoss):
    code = "GL802"
    message = "p * log(p) (an entropy) without a guard: NaN where p is exactly 0 (0 * -inf), in the value and the gradient"
    severity = Severity.WARNING
    docs = "https://pytorch.org/docs/stable/special.html#torch.special.xlogy"
    triggers = ("log",)
    frameworks = ("torch", "tf", "jax")
    note_kind = "xlogx"
    rationale = """
        An entropy written `-(p * log(p)).sum()` is 0 * -inf = NaN for a probability that is
        exactly 0 — a softmax that underflows, a one-hot target, a masked category — and its
        gradient `log(p) + 1` is -inf there. One such entry makes the loss and every gradient
        NaN. Mathematically the limit is 0, but floating point does not take limits.

        Instead: `torch.special.xlogy(p, p)` / `torch.special.entr(p)`,
        `jax.scipy.special.xlogy(p, p)` / `entr`, `tf.math.xlogy(p, p)` (all 0 at 0), or compute
        the entropy from logits: `-(softmax(z) * log_softmax(z)).sum()`.
    """
    invalid = [
        Invalid(
            """
            import jax
            import jax.numpy as jnp
            def entropy(logits):
                probs = jax.nn.softmax(logits)
                return -(probs * jnp.log(probs)).sum(axis=-1)
            print(jax.grad(entropy)(jnp.array([0.0, -200.0, 1.0])))
            """,
            line=5,
        ),
        Invalid(
            """
            import torch
            attn = torch.nn.Linear(16, 8)
            p = torch.softmax(attn(torch.randn(4, 16)), dim=-1)
            ent = torch.sum(p.log() * p, dim=-1).mean()
            ent.backward()
            """,
            line=4,
        ),
    ]
    valid = [
        """
        import torch
        import torch.nn.functional as F
        attn = torch.nn.Linear(16, 8)
        z = attn(torch.randn(4, 16))
        p = torch.softmax(z, dim=-1)
        ent = -(torch.special.xlogy(p, p).sum(-1) + (p * F.log_softmax(z, -1)).sum(-1)).mean()
        guarded = -(p * torch.log(p + 1e-12)).sum(-1).mean() - (p * p.clamp_min(1e-12).log()).sum()
        (ent + guarded).backward()
        """
    ]

    call_names = frozenset({"log", "log2", "log10"})

    def on_call(self, ev: CallEvent) -> None:
        # from something certainly trained: a standalone function's parameters may be plain
        # numbers (`confidence * log(confidence)` of a label-smoothing constant)
        if not any(o.certain for o in ev.result.live):
            return
        f = ev.node.func
        if ev.method is not None and isinstance(f, cst.Attribute) and not ev.arg_nodes:
            arg = f.value  # `p.log()`
        elif ev.arg_nodes:
            arg = ev.arg_nodes[0]
        else:
            return
        if _has_additive_const(arg) or (isinstance(arg, cst.Call) and _func_last(arg) in _SANITIZERS):
            return
        product = xlogx_product(self.ctx, ev.node, arg)
        if product is None:
            return
        holder = self.ctx.parent(product)
        if isinstance(holder, cst.Arg) and _func_last(self.ctx.parent(holder)) == "where":
            return  # `where(p > 0, p * log(p), 0)`: the forward is masked, the gradient is not (GL407)
        self.mark(ev, product)

    def report_site(self, site, data, ev: DiffEvent) -> None:
        self.report(
            site,
            "p * log(p) is 0 * -inf = NaN where p is exactly 0 (an underflowed softmax, a one-hot or masked entry), and "
            "its gradient log(p) + 1 is -inf: one such entry makes the loss and every gradient NaN; use "
            "`xlogy(p, p)` / `entr(p)` (torch.special, jax.scipy.special, tf.math.xlogy) or log_softmax of the logits",
        )
