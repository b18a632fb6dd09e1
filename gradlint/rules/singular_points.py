"""GL8xx singular points and non-differentiable operations: values whose gradient is NaN/inf at
a point the data reaches, and layers or losses whose output depends on the model only through
a piecewise-constant operation.

The NaN traps that share GL4xx's machinery (`where`, `sqrt` of a sum of squares, `log` of a
softmax, the non-differentiable op on a differentiated path) stay in precision.py; this module
holds the ones that need their own reading of a function body.

Why this module is long: it is a catalogue of rules, one class each, and a rule class is its own
specification (rationale, flagged and correct examples); the logic of each is a few dozen lines
plus the function-body reading they share. Adding a rule adds a class here (see docs/architecture.md).
"""

from __future__ import annotations

import builtins
import re

import libcst as cst

from ..analysis import facts as F
from ..analysis import kinds as K
from ..analysis.events import BinOpEvent, CallEvent, DiffEvent, TransformedCallEvent
from ..analysis.frameworks.arrays import FLOOR_CALLS, INT_CAST_METHODS, META_ATTRS, META_METHODS, NONDIFF_FUNCS
from ..analysis.frameworks.tensorflow import TF_INT_DTYPES, TF_NO_GRADIENT_FUNCS
from ..analysis.names import dotted_name
from ..analysis.walk import callee_last, walk
from ..diagnostics import Severity
from ._flow import free_names, imported_modules, returns_mention, starved
from .base import Family, Invalid, Rule
from ..analysis.values import Note
from .precision import _SANITIZERS, _FlowsToLoss, _has_additive_const, _names_in, xlogx_product

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
    name = callee_last(call)
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


_SHAPE_CALLS = META_METHODS | {"shape", "len", "rank", "size_v2", "shape_v2"}
# calls that return (values, indices): the indices are integer positions, without a gradient
_WITH_INDICES = frozenset({"top_k", "topk", "sort", "max", "min", "kthvalue", "mode", "median", "cummax", "cummin"})


def _second_item(e: cst.Subscript) -> bool:
    """`pair[1]`."""
    return (len(e.slice) == 1 and isinstance(e.slice[0].slice, cst.Index) and isinstance(e.slice[0].slice.value, cst.Integer)
            and e.slice[0].slice.value.value == "1")
_COLLECTORS = frozenset({"append", "extend", "insert", "add", "appendleft"})


class _Body:
    """Reads one function body in order: which names depend on the inputs, and how. A call of
    one of `helpers` (the module's functions by name, the class's methods as `self.<name>`) is
    read through: its parameters depend on what its arguments do."""

    def __init__(self, inputs: set[str] | dict[str, _Dep], input_calls: frozenset[str] = frozenset(),
                 helpers: dict | None = None, depth: int = 0) -> None:
        self.env: dict[str, _Dep] = dict(inputs) if isinstance(inputs, dict) else {n: _Dep(True, True) for n in inputs}
        self.returned = _NONE
        # `self.get_input(train)` (Keras 1 layers): a call on self that yields the input
        self.input_calls = input_calls
        self.helpers = helpers or {}
        self.depth = depth

    def through_helper(self, call: cst.Call) -> _Dep | None:
        """`hard_decode(x, M)`, `self._quantize(inputs)`: what the helper returns, read with
        its parameters bound to what the arguments depend on (None: not a helper)."""
        f = call.func
        key = f.value if isinstance(f, cst.Name) else (
            f"self.{f.attr.value}" if isinstance(f, cst.Attribute) and isinstance(f.value, cst.Name) and f.value.value == "self" else None)
        helper = self.helpers.get(key) if key is not None else None
        if not isinstance(helper, cst.FunctionDef) or self.depth >= 3 or not isinstance(helper.body, cst.IndentedBlock):
            return None
        params = _param_names(helper)
        env: dict[str, _Dep] = {}
        for i, a in enumerate(call.args):
            if a.star:
                return None
            name = a.keyword.value if a.keyword is not None else (params[i] if i < len(params) else None)
            if name is not None:
                env[name] = self.expr(a.value)
        if not any(d.reached for d in env.values()):
            return _NONE
        inner = _Body(env, self.input_calls, self.helpers, self.depth + 1)
        inner.block(helper.body.body)
        return inner.returned

    def expr(self, e: cst.CSTNode) -> _Dep:
        if isinstance(e, cst.Name):
            return self.env.get(e.value, _NONE)
        if isinstance(e, cst.Call):
            f = e.func
            if (self.input_calls and isinstance(f, cst.Attribute) and f.attr.value in self.input_calls
                    and isinstance(f.value, cst.Name) and f.value.value == "self"):
                return _Dep(True, True)
            if callee_last(e) in _SHAPE_CALLS:
                return _NONE  # `x.size()`, `tf.shape(x)`, `len(x)`: the shape is not x
            through = self.through_helper(e) if self.helpers else None
            if through is not None:
                return through
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
            if e.attr.value == "indices" and isinstance(e.value, cst.Call) and callee_last(e.value) in _WITH_INDICES:
                dep = self.expr(e.value)  # `tf.math.top_k(y_pred, k).indices`: integer positions
                return _Dep(True, False, dep.site or e) if dep.reached else _NONE
            return _NONE if e.attr.value in META_ATTRS else self.expr(e.value)  # `x.shape` is not x
        if isinstance(e, cst.Subscript):
            if _second_item(e) and isinstance(e.value, cst.Call) and callee_last(e.value) in _WITH_INDICES and (
                    e.value.args or callee_last(e.value) in ("top_k", "topk", "sort", "kthvalue", "mode")):
                dep = self.expr(e.value)  # `logits.max(1)[1]`, `torch.topk(x, k)[1]`: the indices
                return _Dep(True, False, dep.site or e) if dep.reached else _NONE
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

    def small(self, small: cst.BaseSmallStatement, join: bool) -> None:
        if isinstance(small, cst.Assign):
            dep = self.expr(small.value)
            for t in small.targets:
                self.bind(t.target, dep, join)
        elif isinstance(small, cst.AnnAssign) and small.value is not None:
            self.bind(small.target, self.expr(small.value), join)
        elif isinstance(small, cst.AugAssign):
            self.bind(small.target, self.expr(small.target).join(self.expr(small.value)), join)
        elif isinstance(small, cst.Return) and small.value is not None:
            self.returned = self.returned.join(self.expr(small.value))
        elif isinstance(small, cst.Expr) and isinstance(small.value, cst.Call):
            self.collect(small.value)

    def collect(self, call: cst.Call) -> None:
        """`rhos.append(rho)`, `parts.extend(xs)`, `seen.add(v)`: the container now holds what
        it is given (the same as `rhos += [rho]`, `rhos = rhos + [rho]`)."""
        f = call.func
        if (isinstance(f, cst.Attribute) and isinstance(f.value, cst.Name) and f.attr.value in _COLLECTORS
                and call.args):
            dep = _NONE
            for a in call.args[-1:]:  # `insert(i, v)`: the value is the last argument
                dep = dep.join(self.expr(a.value))
            if dep.reached:
                self.bind(f.value, dep, join=True)

    def block(self, stmts, join: bool = False) -> None:
        for st in stmts:
            if isinstance(st, cst.SimpleStatementLine):
                for small in st.body:
                    self.small(small, join)
            elif isinstance(st, cst.BaseSmallStatement):
                self.small(st, join)  # the body of `if c: x = ...` on one line
            elif isinstance(st, cst.If):
                # a name assigned in a branch keeps what it had on the other path too
                self.block(st.body.body, join=True)
                if st.orelse is not None:
                    self.block(st.orelse.body.body if isinstance(st.orelse, cst.Else) else [st.orelse], join=True)
            elif isinstance(st, (cst.For, cst.While, cst.With, cst.Try)):
                self.block(st.body.body, join=True)


def _only_through_piecewise_constant(fn: cst.CSTNode, inputs: set[str], input_calls: frozenset[str] = frozenset(),
                                     helpers: dict | None = None) -> cst.CSTNode | None:
    """The piecewise-constant operation through which alone the function's result depends on
    `inputs` (None when a smooth path exists, or the result does not depend on them)."""
    body = _Body(inputs, input_calls, helpers)
    if isinstance(fn, cst.Lambda):
        body.returned = body.expr(fn.body)
    elif isinstance(fn, cst.FunctionDef) and isinstance(fn.body, cst.IndentedBlock):
        body.block(fn.body.body)
    else:
        return None
    r = body.returned
    return r.site if r.reached and not r.smooth else None


def _helpers(ctx, fn_node: cst.CSTNode) -> dict:
    """The functions a body may call by name: the module's own (`hard_decode(x)`) and, inside a
    class, its methods (`self._quantize(x)`)."""
    out: dict = {s.name.value: s for s in ctx.module_statements() if isinstance(s, cst.FunctionDef)}
    cls = next((a for a in ctx.ancestors(fn_node) if isinstance(a, cst.ClassDef)), None)
    if cls is not None and isinstance(cls.body, cst.IndentedBlock):
        out.update({f"self.{s.name.value}": s for s in cls.body.body if isinstance(s, cst.FunctionDef)})
    return out


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
        smooth path and is not flagged. The function may be given by reference
        (`Lambda(tf.math.round)`, `Lambda(K.argmax, arguments={"axis": -1})`), and the helpers of
        the module that a lambda calls (`lambda x: hard_decode(x, M)`) are read through.

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
        if ev.name != "Lambda" if ev.qual is not None else callee_last(ev.node) != "Lambda":
            return  # resolved: its real name (`Lambda as L`); unresolved (a star import): as written
        if ev.qual is not None and not (ev.qual.endswith(".Lambda") and ("keras" in ev.qual or ev.qual.startswith("tensorflow."))):
            return
        if ev.qual is None and "keras" not in self.ctx.code_text:
            return  # a star import: the file must at least be Keras code
        if not _TRAINED.search(self.ctx.code_text) or self._after_training(ev.node):
            return  # an inference-only model: a hard output is what it is for
        fn_node = ev.arg_node(0, "function")
        fnval = ev.arg(0, "function")
        site: cst.CSTNode | None = None
        if not isinstance(fn_node, cst.Lambda):
            fn = fnval.get(F.FN) if fnval is not None else None
            ref = fn_node
            fn_node = getattr(fn, "node", None)
            qual = fnval.get(F.QUAL) if fnval is not None and fnval.kind == K.REF else None
            if fn_node is None and isinstance(qual, str) and qual.rsplit(".", 1)[-1] in NONDIFF_FUNCS | TF_NO_GRADIENT_FUNCS:
                site = ref  # `Lambda(tf.math.round)`, `Lambda(K.argmax, arguments=...)`: the function itself
        if site is None:
            if not isinstance(fn_node, (cst.Lambda, cst.FunctionDef)):
                return
            inputs = set(_param_names(fn_node))
            site = _only_through_piecewise_constant(fn_node, inputs, helpers=_helpers(self.ctx, fn_node)) if inputs else None
        if site is None:
            return
        what = _what(site)
        self.report(
            site,
            f"the Lambda layer's output depends on its input only through {what}, which has a zero or no gradient: "
            f"fit() finds no gradient for the layers before it (\"No gradients provided\") or trains nothing there; "
            f"apply it to model.predict(...) outside the trained model, use a smooth surrogate, or a straight-through "
            f"estimator `x + K.stop_gradient(K.round(x) - x)`",
        )


    def _after_training(self, node) -> bool:
        """A module-level Lambda layer below every training call of the file (`model.fit(...)`,
        then `decoder = Model(inp, Lambda(argmax)(probs))` for predict): the separate inference
        model this rule's message recommends, built once training is over."""
        if any(isinstance(a, (cst.FunctionDef, cst.ClassDef, cst.For, cst.While, cst.Lambda)) for a in self.ctx.ancestors(node)):
            return False
        rng = self.ctx.range_of(node)
        text = self.ctx.code_text
        return rng is not None and all(text.count("\n", 0, m.start()) + 1 < rng[0].line for m in _TRAINED.finditer(text))


# ------------------------------------------------------------------ custom losses and layers
# The file trains something: a loss function there is meant to be differentiated.
_TRAINS = re.compile(
    r"\.(?:fit|fit_generator|train_on_batch|backward|apply_gradients|minimize|manual_backward)\(|"
    r"\.compile\([^)]*\bloss\s*=|GradientTape|\bgrad\(|value_and_grad\(|autograd\.grad\("
)
_TARGET_LIKE = re.compile(r"target|label|true|^gts?$|^y$|^gt_|_gt$", re.I)
_LOSS_WORDS = ("loss", "objective", "criterion")


def _loss_named(name: str) -> bool:
    low = name.lower()
    return any(w in low for w in _LOSS_WORDS)


def _positional(fn) -> list[str]:
    """Positional parameters without a default, `self` left out: the values a loss is fed."""
    return [n for n, kind, _ in fn.params if kind == "pos" and n not in ("self", "cls") and n not in fn.defaults]


def _no_gradient(site: cst.CSTNode) -> bool:
    """`tf.numpy_function(...)`, `tf.py_func(...)`: Python code run as an op, with no gradient."""
    return isinstance(site, cst.Call) and callee_last(site) in TF_NO_GRADIENT_FUNCS


def _what(site: cst.CSTNode) -> str:
    if isinstance(site, cst.Call):
        return f"`{callee_last(site)}`"
    if isinstance(site, (cst.Attribute, cst.Subscript)) and isinstance(site.value, cst.Call):
        return f"the indices of `{callee_last(site.value)}`"  # `top_k(x, k).indices`, `x.max(1)[1]`
    if isinstance(site, (cst.Name, cst.Attribute)):
        return f"`{dotted_name(site)}`"  # `Lambda(tf.math.round)`: the function given by reference
    return "a comparison"


class _BodySites(Rule):
    """Collects, per function body, the piecewise-constant operation through which alone its
    result depends on the values it is fed; reports them at the end unless a differentiation
    the analysis saw already starves a trained value through the same operation (GL410's)."""

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self._fns: dict[int, object] = {}
        # per function, the parameters that some call fed a value certainly carrying a trained
        # value's history (`criterion(model(x), y)`: the prediction, not the target)
        self._fed: dict[int, set[str]] = {}
        self._covered: set[int] = set()

    def on_diff(self, ev: DiffEvent) -> None:
        # where GL410 certainly reports the same operation (it wants every starved origin of
        # such a differentiation: see StarvedOrigins._wanted), one finding is enough
        if ev.target.certain_live() and ev.kind not in ("jax", "keras", "lightning"):
            return
        for cuts in starved(ev.target).values():
            self._covered.update(id(c.node) for c in cuts)

    def on_function(self, ev) -> None:
        fn = ev.fn
        if not isinstance(fn.node, cst.FunctionDef):
            return
        self._fns.setdefault(id(fn.node), fn)
        if ev.kind == "inline":
            fed = self._fed.setdefault(id(fn.node), set())
            fed.update(n for n, v in ev.params.items() if any(o.certain for o in v.live))

    def site_of(self, fn, fed: set[str]) -> cst.CSTNode | None:  # pragma: no cover - abstract
        raise NotImplementedError

    def finish(self) -> None:
        for key, fn in self._fns.items():
            site = self.site_of(fn, self._fed.get(key, set()))
            if site is not None and id(site) not in self._covered:
                self.emit(site, fn)

    def emit(self, site, fn) -> None:  # pragma: no cover - abstract
        raise NotImplementedError


class NonDifferentiableCustomLoss(_BodySites):
    code = "GL803"
    message = "a custom loss whose value depends on the predictions only through round/argmax/argsort/a comparison/an integer cast/numpy_function: its gradient is zero or None"
    severity = Severity.WARNING
    docs = "https://www.tensorflow.org/guide/autodiff#gradients_of_non-differentiable_functions"
    triggers = ("loss",)
    chunk_triggers = (r"def\s+\w*(?:loss|Loss|LOSS|objective)\w*\s*\(",)
    frameworks = ("torch", "tf", "jax")
    rationale = """
        A loss function is differentiated with respect to the predictions it is fed. When its
        value depends on them only through a piecewise-constant operation — `K.round`,
        `tf.argsort`, `argmax`, `tf.equal`, `count_nonzero`, a comparison, a cast to an integer
        type — the gradient is zero almost everywhere, or None in TensorFlow: `fit()` stops
        with "No gradients provided for any variable", `tape.gradient` returns None, and a
        PyTorch loss has no `grad_fn` or trains nothing.

        `tf.numpy_function` and `tf.py_func` (Python code run as an op) register no gradient
        at all: a loss computed through them gets None.

        The rule reads the body of a function that is evidently a loss: a Keras loss
        `def ..._loss(y_true, y_pred)` (only `y_pred` is differentiated) or the
        `(y_true, y_pred)` function a loss-named factory returns
        (`def spearman_loss(k): def rhos(y_true, y_pred): ...; return rhos`), or a function or
        `forward` of a `...Loss` class whose name says it is a loss in a file that trains.
        A hard operation used as a weight or mask on a smooth term keeps a smooth path and is
        not flagged; neither is a metric (accuracy, IoU) that is not named a loss. A Keras loss
        that never reads `y_pred` at all (nor any value from outside it: `y_true - y_true`) is
        reported too; one returning a constant placeholder is not.

        Instead: a smooth surrogate (soft Dice on the probabilities, a softmax instead of
        argmax, a sigmoid with a temperature instead of a threshold, a differentiable ranking
        loss), or a straight-through estimator `x + stop_gradient(round(x) - x)`.
    """
    invalid = [
        Invalid(
            """
            from keras import backend as K
            def hard_dice_loss(y_true, y_pred):
                yp = K.round(K.flatten(y_pred))
                yt = K.flatten(y_true)
                return 1.0 - 2.0 * K.sum(yt * yp) / (K.sum(yt) + K.sum(yp) + 1.0)
            """,
            line=3,
        ),
        Invalid(
            """
            import torch
            class ThresholdLoss(torch.nn.Module):
                def __init__(self):
                    super().__init__()
                    self.scale = torch.nn.Parameter(torch.ones(1))
                def forward(self, logits, target):
                    hits = (logits.sigmoid() > 0.5).float()
                    return (hits - target.float()).abs().mean() * self.scale
            def train_epoch(model, loader, optimizer):
                for x, y in loader:
                    loss = ThresholdLoss()(model(x), y)
                    optimizer.zero_grad()
                    loss.backward()
                    optimizer.step()
            """,
            line=7,
        ),
    ]
    valid = [
        """
        from keras import backend as K
        def soft_dice_loss(y_true, y_pred):
            yt, yp = K.flatten(y_true), K.flatten(y_pred)
            return 1.0 - 2.0 * K.sum(yt * yp) / (K.sum(yt) + K.sum(yp) + 1.0)
        def hard_accuracy(y_true, y_pred):
            return K.mean(K.equal(K.round(y_pred), y_true))
        def ste_loss(y_true, y_pred):
            hard = y_pred + K.stop_gradient(K.round(y_pred) - y_pred)
            return K.mean(K.square(hard - y_true))
        """
    ]

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self._unread: set[int] = set()  # sites of Keras losses that never read y_pred
        self._defs: frozenset[str] | None = None

    def _module_names(self, node) -> frozenset[str]:
        """What the file imports as modules (`tf`, `K`, `np`) or defines with def/class: code,
        not values a loss could be computed from."""
        if self._defs is None:
            names = set(imported_modules(self.ctx))
            module = next((a for a in self.ctx.ancestors(node) if isinstance(a, cst.Module)), None)
            for stmt in module.body if module is not None else ():
                if isinstance(stmt, (cst.FunctionDef, cst.ClassDef)):
                    names.add(stmt.name.value)
            self._defs = frozenset(names)
        return self._defs

    def site_of(self, fn, fed: set[str]) -> cst.CSTNode | None:
        params = _positional(fn)
        if len(params) < 2:
            return None
        cls_loss = fn.cls is not None and fn.name in ("forward", "call", "__call__") and _loss_named(fn.cls.name)
        if not (_loss_named(fn.name) or cls_loss or self._made_by_loss_factory(fn)):
            return None
        if params[0] == "y_true" and params[1] == "y_pred":
            inputs = {params[1]}  # a Keras loss: only the prediction is differentiated
            unread = _unread_prediction(fn.node, self._module_names(fn.node))
            if unread is not None:
                self._unread.add(id(unread))
                return unread
        elif not _TRAINS.search(self.ctx.code_text):
            return None
        elif fed & set(params):
            inputs = fed & set(params)  # what the calls feed it from the model
        elif cls_loss and not _TARGET_LIKE.search(params[0]):
            inputs = {params[0]}  # a loss module's `forward(input, target)`: the prediction first
        else:
            inputs = set(params)  # unknown which is the prediction: smooth in none of them
        return _only_through_piecewise_constant(fn.node, inputs, helpers=_helpers(self.ctx, fn.node))

    def _made_by_loss_factory(self, fn) -> bool:
        """`def custom_loss(k): def rhos(y_true, y_pred): ...; return rhos`: the function a
        loss-named factory returns is the loss (the Keras idiom for a loss with settings)."""
        outer = next((a for a in self.ctx.ancestors(fn.node) if isinstance(a, (cst.FunctionDef, cst.ClassDef))), None)
        if not isinstance(outer, cst.FunctionDef) or not _loss_named(outer.name.value):
            return False
        return any(
            isinstance(r, cst.Return) and isinstance(r.value, cst.Name) and r.value.value == fn.name
            for r in walk(outer.body, code_only=True)
        )

    def emit(self, site, fn) -> None:
        if id(site) in self._unread:
            self.report(
                site,
                f"the Keras loss `{fn.qualname}` never reads `y_pred`: Keras differentiates it with respect to the "
                f"predictions only, so every layer that reaches the loss only through them gets a None gradient (\"No "
                f"gradients provided for any variable\"); compute the loss from `y_pred` (a value another layer "
                f"computed belongs in `model.add_loss`)",
            )
            return
        if _no_gradient(site):
            self.report(
                site,
                f"the loss `{fn.qualname}` depends on its predictions only through {_what(site)}, which runs Python "
                f"code as an op and registers no gradient: the gradient is None (\"No gradients provided for any "
                f"variable\"), so nothing trains; compute the loss with TensorFlow ops (a smooth surrogate for a "
                f"ranking or a threshold), or use `tf.py_function` with a `tf.custom_gradient`",
            )
            return
        self.report(
            site,
            f"the loss `{fn.qualname}` depends on its predictions only through {_what(site)}, which is piecewise constant: "
            f"its gradient is zero almost everywhere (None in TensorFlow: \"No gradients provided for any variable\"), "
            f"so nothing trains; use a smooth surrogate (soft Dice on probabilities, softmax instead of argmax, a "
            f"sigmoid instead of a threshold) or a straight-through estimator `x + stop_gradient(round(x) - x)`",
        )


def _unread_prediction(fn: cst.FunctionDef, code_names: frozenset[str]) -> cst.CSTNode | None:
    """The first `return` of a Keras loss `(y_true, y_pred)` when no return can depend on
    `y_pred` (an over-approximating taint, `returns_mention`) nor on any value from outside the
    function (only what the module imports or defines: `square(y_true - y_true)`), so nothing
    trainable reaches it; yet what it returns is computed (a name). A loss that returns a
    constant (`return 0.0`, the placeholder of an output that is not trained) is meant so, and
    one that reads another layer's tensor (`K.sum(hidden_a)`) trains the layers before it."""
    if returns_mention(fn, {"y_pred"}) or free_names(fn) - code_names - _BUILTINS:
        return None
    for node in walk(fn.body, code_only=True):
        if isinstance(node, cst.Return) and node.value is not None:
            if any(isinstance(n, cst.Name) for n in walk(node.value, code_only=True)):
                return node
            return None
    return None


_BUILTINS = frozenset(dir(builtins))


# Keras 1 layers read their input with `self.get_input(train)` in `get_output`
_LAYER_METHODS = {"call": (), "get_output": ("get_input",), "get_output_for": ()}


class NonDifferentiableKerasLayer(_BodySites):
    code = "GL804"
    message = "a custom Keras layer whose output depends on its input only through round/argmax/a comparison/an integer cast: no gradient flows back through it"
    severity = Severity.WARNING
    docs = "https://keras.io/guides/making_new_layers_and_models_via_subclassing/"
    triggers = ("Layer",)
    chunk_triggers = (r"def\s+(?:call|get_output|get_output_for)\s*\(",)
    frameworks = ("tf",)
    rationale = """
        A custom `Layer` is differentiated like any other: Keras backpropagates through its
        `call`. When the output depends on the input only through a piecewise-constant
        operation — `K.round`, `tf.argmax`, a comparison, a cast to an integer type — every
        layer before it gets a zero or missing gradient: `fit()` stops with "No gradients
        provided for any variable", or the model before the layer never changes. (The same
        trap as GL801's `Lambda` layer, spelled as a class.)

        Instead: keep the hard operation out of the trained model (apply it to
        `model.predict(...)`), use a smooth surrogate, or a straight-through estimator
        `x + K.stop_gradient(K.round(x) - x)`.
    """
    invalid = [
        Invalid(
            """
            import tensorflow as tf
            class Quantize(tf.keras.layers.Layer):
                def call(self, inputs):
                    return tf.round(inputs * 4.0) / 4.0
            model = tf.keras.Sequential([tf.keras.layers.Dense(8), Quantize(), tf.keras.layers.Dense(1)])
            model.compile(optimizer="adam", loss="mse")
            """,
            line=4,
        ),
        Invalid(
            """
            from keras.layers import Layer, Dense
            from keras.models import Sequential
            import keras.backend as K
            class Binary(Layer):
                def get_output(self, train=False):
                    X = self.get_input(train)
                    return K.cast(K.greater(X, 0.5), "float32")
            m = Sequential([Dense(3, input_dim=4), Binary()])
            m.compile(loss="mae", optimizer="sgd")
            """,
            line=7,
        ),
    ]
    valid = [
        """
        import tensorflow as tf
        class StraightThrough(tf.keras.layers.Layer):
            def call(self, inputs):
                return inputs + tf.stop_gradient(tf.round(inputs) - inputs)
        class Gate(tf.keras.layers.Layer):
            def call(self, inputs, training=None):
                return inputs * tf.cast(inputs > 0, inputs.dtype)
        model = tf.keras.Sequential([tf.keras.layers.Dense(8), StraightThrough(), Gate(), tf.keras.layers.Dense(1)])
        model.compile(optimizer="adam", loss="mse")
        """
    ]

    def site_of(self, fn, fed: set[str]) -> cst.CSTNode | None:
        cls = fn.cls
        if cls is None or fn.name not in _LAYER_METHODS or not _TRAINED.search(self._scope_text(cls.node)):
            return None
        if not (cls.is_keras or any(b.rsplit(".", 1)[-1] == "Layer" for b in cls.bases)):
            return None
        params = _positional(fn)
        input_calls = frozenset(_LAYER_METHODS[fn.name])
        inputs = set(params[:1]) if not input_calls else set()
        if not inputs and not input_calls:
            return None
        return _only_through_piecewise_constant(fn.node, inputs, input_calls, helpers=_helpers(self.ctx, fn.node))

    def _scope_text(self, cls_node) -> str:
        """Where training must show: the function a layer class is defined in (a test that only
        predicts with it, keras' numpy_test.py), else the whole file."""
        enclosing = next((a for a in self.ctx.ancestors(cls_node) if isinstance(a, cst.FunctionDef)), None)
        return self.ctx.code(enclosing) if enclosing is not None else self.ctx.code_text

    def emit(self, site, fn) -> None:
        self.report(
            site,
            f"the layer `{fn.cls.name}` outputs its input only through {_what(site)}, which has a zero or no gradient: "
            f"fit() finds no gradient for the layers before it (\"No gradients provided\") or trains nothing there; "
            f"apply it to model.predict(...) outside the trained model, use a smooth surrogate, or a straight-through "
            f"estimator `x + K.stop_gradient(K.round(x) - x)`",
        )


# ------------------------------------------------------------------ x * log(x)

class XLogXAtZero(_FlowsToLoss):
    code = "GL802"
    message = "p * log(p) (an entropy) without a guard: NaN where p is exactly 0 (0 * -inf), in the value and the gradient"
    severity = Severity.WARNING
    docs = "https://pytorch.org/docs/stable/generated/torch.nn.functional.log_softmax.html"
    triggers = ("log",)
    frameworks = ("torch", "tf", "jax")
    note_kind = "xlogx"
    rationale = """
        An entropy written `-(p * log(p)).sum()` is 0 * -inf = NaN for a probability that is
        exactly 0 — a softmax that underflows, a one-hot target, a masked category — and its
        gradient `log(p) + 1` is -inf there. One such entry makes the loss and every gradient
        NaN. Mathematically the limit is 0, but floating point does not take limits.

        Instead: compute the entropy from the logits, `-(softmax(z) * log_softmax(z)).sum()`
        (or `torch.distributions.Categorical(logits=z).entropy()`), with masked logits filled
        with a large finite negative number rather than -inf; or clamp inside the log,
        `p * log(p.clamp_min(1e-12))`. `torch.special.xlogy(p, p)` and `entr(p)` give the value
        0 at 0 but not a finite gradient (their derivative there is still infinite or 0/0:
        measured on torch 2.13, NaN through a softmax).
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
        ent = -(p * F.log_softmax(z, -1)).sum(-1).mean()
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
        if _has_additive_const(arg) or (isinstance(arg, cst.Call) and callee_last(arg) in _SANITIZERS):
            return
        arg_val = ev.recv if ev.method is not None and not ev.arg_nodes else (ev.args[0] if ev.args else None)
        if arg_val is not None and arg_val.get(F.GUARDED) is not None:
            return  # `n = n + eps` earlier: log(n) is finite
        product = xlogx_product(self.ctx, ev.node, arg)
        if product is None:
            return
        holder = self.ctx.parent(product)
        if isinstance(holder, cst.Arg) and callee_last(self.ctx.parent(holder)) == "where":
            return  # `where(p > 0, p * log(p), 0)`: the forward is masked, the gradient is not (GL407)
        self.mark(ev, product)

    def report_site(self, site, data, ev: DiffEvent) -> None:
        self.report(
            site,
            "p * log(p) is 0 * -inf = NaN where p is exactly 0 (an underflowed softmax, a one-hot or masked entry), and "
            "its gradient log(p) + 1 is -inf: one such entry makes the loss and every gradient NaN; use "
            "softmax(z) * log_softmax(z) of the logits (masked logits filled with a large finite negative number, not -inf) "
            "or clamp inside the log, `p * log(p.clamp_min(1e-12))`; torch's xlogy(p, p)/entr(p) fix the value at 0 but "
            "not the gradient",
        )


# ------------------------------------------------------------------ singular points reached
# Operations whose derivative is infinite or undefined at 0 (every operand 0 for arctan2) and at
# an infinity (cos(inf) = NaN, and so is its derivative).
_AT_ZERO = frozenset({"sqrt", "rsqrt", "arctan2", "atan2"})
_AT_INF = frozenset({"cos", "sin", "tan"})
# torch's norms define their gradient at 0 as 0 (linalg_vector_norm_backward masks it); JAX's
# and TensorFlow's divide by the norm
_NORM_LIBS = ("jax.", "tensorflow.", "keras.")


def _number(e) -> float | None:
    """The value of a numeric literal or of arithmetic on literals (`1.0 / 3.0`)."""
    try:
        if isinstance(e, (cst.Float, cst.Integer)):
            return float(e.evaluated_value)
        if isinstance(e, cst.BinaryOperation):
            a, b = _number(e.left), _number(e.right)
            if a is None or b is None:
                return None
            op = type(e.operator)
            if op is cst.Divide:
                return a / b if b else None
            return {cst.Add: a + b, cst.Subtract: a - b, cst.Multiply: a * b}.get(op)
    except (ValueError, OverflowError):
        return None
    return None


def _fractional_exponent(e: cst.BaseExpression | None) -> bool:
    """`0.5`, `1/3`-like literal exponents in (0, 1): the power's derivative is infinite at 0."""
    v = _number(e)
    return v is not None and 0.0 < v < 1.0


# a ReLU's backward selects 0 where its input is <= 0 (torch threshold_backward, jax.nn.relu's
# custom jvp, TensorFlow's ReluGrad): an inf from sqrt after it never reaches its input
_MASKING = frozenset({"relu", "relu6", "relu_"})


def _floored_at_zero(v) -> bool:
    ex = v.get(F.EXACT) if v is not None else None
    return ex is not None and ex.zero


class SingularPointReached(Rule):
    code = "GL805"
    message = "sqrt/norm/arctan2/a fractional power at a value proven to be exactly 0 (cos/sin at inf) on a differentiated path: the gradient is inf or NaN there"
    severity = Severity.WARNING
    docs = "https://jax.readthedocs.io/en/latest/faq.html#gradients-contain-nan-where-using-where"
    triggers = ("sqrt", "norm", "arctan2", "atan2", "**", "pow", "cos", "sin", "tan")
    frameworks = ("torch", "tf", "jax")
    note_kind = "singular_point"
    rationale = """
        `sqrt`, a fractional power `x ** 0.5`, `jnp.linalg.norm` / `tf.norm` and `arctan2(y, x)`
        have an infinite or undefined derivative at 0; `cos`, `sin` and `tan` have a NaN one at
        an infinity. When the data provably reaches that point — a literal 0 or `inf` in the
        array that is differentiated, `zeros(...)`, a product with such a value
        (`jnp.array((0, 1)) * x`, `a * jnp.zeros(2)`) or with a comparison mask
        (`h * (h > 0).float()`, inside a model's forward too), JAX's `maximum(x, 0)`/`clip(x, 0)` (exactly 0
        wherever x is negative, and its derivative is a product with 0 there; a ReLU masks
        instead) — the gradient is inf there, and the chain
        rule multiplies it by the zero cotangent of anything that discards the value (a `where`,
        a mask, an overwriting `.at[i].set`, a zero factor): inf * 0 = NaN, and one NaN poisons
        the whole gradient. Masking the *result* does not help: the backward pass still
        evaluates the derivative at the bad point.

        The rule fires only with that evidence (the line of the literal or factory is cited): a
        `sqrt` of ordinary data is left alone.

        Instead: make the input safe *before* the operation (`safe = where(x > 0, x, 1.0)`, then
        `where(x > 0, sqrt(safe), 0.0)`), mask before the power (`delta[delta > 0] ** 0.5`), add
        an epsilon (`sqrt(u + 1e-12)`), or use an op whose gradient is defined at 0
        (`torch.linalg.vector_norm`, `optax.safe_norm`).
    """
    invalid = [
        Invalid(
            """
            import jax
            import jax.numpy as jnp
            def dist(scale, v):
                return jnp.linalg.norm(scale * v)
            origin = jnp.zeros(3)
            print(jax.grad(dist)(2.0, origin))
            """,
            line=4,
        ),
        Invalid(
            """
            import torch
            w = torch.ones(3, requires_grad=True)
            counts = torch.tensor([4.0, 0.0, 9.0]) * w
            loss = counts.pow(0.5).sum()
            loss.backward()
            """,
            line=4,
        ),
    ]
    valid = [
        """
        import jax
        import jax.numpy as jnp
        def dist(scale, v):
            return jnp.linalg.norm(scale * v)
        print(jax.grad(dist)(2.0, jnp.ones(3)))
        def safe(x):
            ok = x > 0
            return jnp.where(ok, jnp.sqrt(jnp.where(ok, x, 1.0)), 0.0).sum()
        print(jax.grad(safe)(jnp.array([0.0, 4.0])))
        """,
        """
        import torch
        w = torch.ones(3, requires_grad=True)
        counts = torch.tensor([4.0, 0.0, 9.0]) * w
        loss = (counts + 1e-6).sqrt().sum() + torch.linalg.vector_norm(counts)
        loss.backward()
        """,
    ]

    call_names = _AT_ZERO | _AT_INF | {"norm", "pow", "float_power", "power"}

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self._reached: dict[int, tuple] = {}  # site id -> (site, data), in the order differentiations reach them
        self._calls: dict[int, list] = {}  # id(jax.grad node) -> [TransformedCallEvent]

    # ----------------------------------------------------------------- marking
    def on_call(self, ev: CallEvent) -> None:
        name = ev.name
        f = ev.node.func
        if ev.method is not None and isinstance(f, cst.Attribute) and ev.recv is not None and ev.recv.get(F.FW):
            operands = [(f.value, ev.recv)] + list(zip(ev.arg_nodes, ev.args))[:1]  # `x.sqrt()`, `x.pow(0.5)`
        else:
            operands = list(zip(ev.arg_nodes, ev.args))
        if not operands:
            return
        if name in ("pow", "float_power", "power"):
            if len(operands) < 2 or not _fractional_exponent(operands[1][0]):
                return
            operands, need = operands[:1], "zero"
        elif name == "norm":
            if not (ev.qual or "").startswith(_NORM_LIBS):
                return
            # singular only at the zero vector: a vector that merely contains a 0 (a one-hot
            # direction) has a norm with a finite gradient
            operands, need = operands[:1], "all_zero"
        elif name in ("arctan2", "atan2"):
            operands, need = operands[:2], "zero"
        elif name in _AT_INF:
            operands, need = operands[:1], "inf"
        else:
            operands, need = operands[:1], "zero"
        data = self._evidence(ev.ctx, operands, need)
        if data is not None:
            ev.add_note(Note(self.note_kind, ev.node, data=(name,) + data))

    def on_binop(self, ev: BinOpEvent) -> None:
        if ev.op != "**" or not _fractional_exponent(ev.node.right):
            return
        data = self._evidence(ev.ctx, [(ev.node.left, ev.left)], "zero")
        if data is not None:
            ev.add_note(Note(self.note_kind, ev.node, data=("** " + cst.Module([]).code_for_node(ev.node.right),) + data))

    def _evidence(self, ctx, operands, need: str) -> tuple | None:
        """("direct", the node proving it) when every operand may be exactly 0 (or inf);
        ("call", the jax.grad node, the function, the parameter names the operands read) when
        the operands come from a JAX-differentiated function's parameters (its call sites tell)."""
        if any(_has_additive_const(n) or (isinstance(n, cst.Call) and callee_last(n) in _SANITIZERS and not _floored_at_zero(v))
               for n, v in operands):
            return None  # `sqrt(u + eps)`, `sqrt(clamp(u, min=1e-12))` (not a clamp at 0: `relu`-like)
        if any(v is not None and v.get(F.GUARDED) is not None for _, v in operands):
            return None  # kept away from 0 where it was made (`safe = where(x == 0, 1.0, x)`, `u = n + eps`)
        if any(isinstance(n, cst.Call) and callee_last(n) in _MASKING for n, _ in operands):
            return None  # `sqrt(relu(x))`: the ReLU's derivative selects 0 where x <= 0 (not 0 * inf)
        if not any(v is not None and v.live for _, v in operands):
            return None  # `jnp.abs(a) * norm(x)` differentiated in `a` only: norm(x) is a constant
        proofs = []
        for _node, v in operands:
            ex = v.get(F.EXACT) if v is not None else None
            if ex is None or not getattr(ex, need):
                proofs = None
                break
            proofs.append(ex.node)
        if proofs:
            return ("direct", proofs[0])
        traced = ctx.traced
        fn = ctx.fn
        if traced is None or traced.kind != "grad" or traced.node is None or fn is None or traced.fn is not fn:
            return None
        params = {p[0] for p in fn.params}
        per_operand = []
        for n, v in operands:
            names = {x for x in _names_in(n) if x in params}
            names |= {o.label for o in (v.live if v is not None else ()) if o.kind == K.ORIGIN_JAXARG and o.label in params}
            if not names:
                return None
            per_operand.append(frozenset(names))
        return ("call", traced.node, fn, tuple(per_operand), need)

    # ----------------------------------------------------------------- reaching
    def on_diff(self, ev: DiffEvent) -> None:
        for n in ev.target.sorted_notes(self.note_kind):
            self._reached.setdefault(id(n.node), (n.node, n.data))

    def on_transformed_call(self, ev: TransformedCallEvent) -> None:
        self._calls.setdefault(id(ev.transform.node), []).append(ev)

    def finish(self) -> None:
        for site, data in self._reached.values():
            what, how = data[0], data[1]
            if how == "direct":
                self._emit(site, what, data[2])
                continue
            _, _, grad_node, fn, per_operand, need = data
            names = [p[0] for p in fn.params]
            for call in self._calls.get(id(grad_node), ()):
                proof = self._call_evidence(call, names, per_operand, need)
                if proof is not None:
                    self._emit(site, what, proof, call.node)
                    break

    @staticmethod
    def _call_evidence(call: TransformedCallEvent, names: list[str], per_operand, need: str):
        proofs = []
        for operand_names in per_operand:
            found = None
            for pname in operand_names:
                idx = names.index(pname)
                v = call.kwargs.get(pname) or (call.args[idx] if idx < len(call.args) else None)
                ex = v.get(F.EXACT) if v is not None else None
                if ex is not None and getattr(ex, need):
                    found = ex.node
                    break
            if found is None:
                return None
            proofs.append(found)
        return proofs[0]

    def _emit(self, site, what: str, proof, call=None) -> None:
        point = "inf" if what in _AT_INF else "exactly 0"

        floor = isinstance(proof, cst.Call) and callee_last(proof) in FLOOR_CALLS
        mask = isinstance(proof, cst.Comparison)  # a product with a comparison mask

        def message(line) -> str:
            via = f", passed to the differentiated function on line {line(call)}" if call is not None else ""
            if floor:
                where = f"`{self.ctx.code(proof.func)}` on line {line(proof)} is 0 wherever its input is at or below 0"
            elif mask:
                where = f"a product with the mask `{self.ctx.code(proof)}` on line {line(proof)} is 0 wherever it is False"
            else:
                where = f"line {line(proof)}{via}"
            return (
                f"`{what}` is differentiated where the data is {point} ({where}), and its derivative there "
                f"is infinite or undefined: times the zero cotangent of a mask/where/overwrite (or of a zero factor) it is "
                f"NaN, which poisons the whole gradient; make the input safe before the operation (`where(x > 0, x, 1.0)`), "
                f"mask before it, add an epsilon, or use an op whose gradient is defined there"
            )

        self.report(site, message)


# ------------------------------------------------------------------ eigenvectors
# Where a decomposition's vectors are in its result: (values, vectors) for eig/eigh everywhere;
# (U, S, V/Vh) for torch's and JAX's svd, (s, u, v) for TensorFlow's. Keyed by qualified name.
_VECTOR_OUTPUTS = {
    **{q: (1,) for q in ("torch.linalg.eigh", "torch.linalg.eig", "torch.symeig", "torch.eig", "jax.numpy.linalg.eigh",
                         "jax.numpy.linalg.eig", "jax.scipy.linalg.eigh", "tensorflow.linalg.eigh", "tensorflow.linalg.eig",
                         "tensorflow.eigh")},
    **{q: (0, 2) for q in ("torch.linalg.svd", "torch.svd", "jax.numpy.linalg.svd", "jax.scipy.linalg.svd")},
    **{q: (1, 2) for q in ("tensorflow.linalg.svd", "tensorflow.svd")},
}
_VECTOR_FIELDS = frozenset({"eigenvectors", "U", "V", "Vh"})
_VALUE_FIELDS = frozenset({"eigenvalues", "S"})


def _vectors_used(ctx, call: cst.Call, positions: tuple[int, ...]) -> bool:
    """Whether the code reads the vectors of the decomposition `call` (and not only its
    values): `eigh(m)[1]`, `.eigenvectors`, or a name unpacked at a vector position that the
    function reads afterwards (`vals, vecs = eigh(m)` then `vecs`). Unknown: False."""
    parent = ctx.parent(call)
    if isinstance(parent, cst.Subscript) and parent.value is call and len(parent.slice) == 1:
        sl = parent.slice[0].slice
        return isinstance(sl, cst.Index) and isinstance(sl.value, cst.Integer) and int(sl.value.value) in positions
    if isinstance(parent, cst.Attribute) and parent.value is call:
        return parent.attr.value in _VECTOR_FIELDS
    if isinstance(parent, cst.Assign) and len(parent.targets) == 1 and isinstance(parent.targets[0].target, (cst.Tuple, cst.List)):
        elements = parent.targets[0].target.elements
        names = {e.value.value for i, e in enumerate(elements) if i in positions and isinstance(e.value, cst.Name)}
        names = {n for n in names if not n.startswith("_")}
        if not names:
            return False
        scope = next((a for a in ctx.ancestors(parent) if isinstance(a, (cst.FunctionDef, cst.Module))), None)
        if scope is None:
            return False
        # the module's statements may be parsed in several chunks: read them all, in order
        roots = [scope] if isinstance(scope, cst.FunctionDef) else ctx.module_statements()
        seen = False
        for root in roots:
            for n in walk(root, code_only=True):
                if n is parent:
                    seen = True
                elif seen and isinstance(n, cst.Name) and n.value in names and not _is_store(ctx, n):
                    return True
        return False
    return False


def _is_store(ctx, name: cst.Name) -> bool:
    """`vecs = ...`, `a, vecs = ...` (a target, however nested in tuples), or `o.vecs`."""
    p = ctx.parent(name)
    if isinstance(p, cst.Attribute) and p.attr is name:
        return True
    node: cst.CSTNode = name
    while isinstance(p, (cst.Element, cst.Tuple, cst.List, cst.StarredElement)):
        node, p = p, ctx.parent(p)
    return isinstance(p, cst.AssignTarget) or (isinstance(p, cst.For) and p.target is node)


class EigenvectorsDifferentiated(_FlowsToLoss):
    code = "GL806"
    message = "the eigenvectors (or singular vectors) of a decomposition are differentiated: the gradient divides by eigenvalue differences and is inf/NaN where eigenvalues repeat"
    severity = Severity.WARNING
    docs = "https://pytorch.org/docs/stable/generated/torch.linalg.eigh.html"
    triggers = ("eig", "svd")
    frameworks = ("torch", "jax", "tf")
    note_kind = "eigenvectors"
    call_names = frozenset({"eigh", "eig", "svd", "symeig"})
    rationale = """
        The derivative of an eigenvector of `eigh`/`eig` (and of the singular vectors U, V of
        `svd`) has a factor 1 / (lambda_i - lambda_j) for every other eigenvalue. Where two
        eigenvalues are equal — an identity or diagonal matrix with repeated entries, a
        covariance of rank-deficient or symmetric data, a freshly initialised weight — the
        gradient is inf or NaN, and it is huge when they are merely close; the eigenvectors
        themselves are not even unique there. PyTorch's documentation: "gradients computed using
        the eigenvectors tensor will only be finite when A has distinct eigenvalues"; JAX and
        TensorFlow behave the same. The eigenvalues (`eigvalsh`, `svdvals`) are differentiable
        everywhere and are not reported.

        Instead: differentiate through the eigenvalues only when the loss allows it; otherwise
        keep the eigenvalues apart (add a small distinct diagonal perturbation), or use a
        formulation that does not need the eigenvector gradient (a power iteration, a Cholesky
        or matrix-function form).
    """
    invalid = [
        Invalid(  # jax-ml/jax#4646: the gradient of an eigenvector of a matrix with a repeated eigenvalue
            """
            import jax
            import jax.numpy as jnp
            def top_vector(m):
                return jnp.linalg.eigh(m)[1][:, -1].sum()
            print(jax.grad(top_vector)(jnp.diag(jnp.array([4.0, 1.0, 1.0]))))
            """,
            line=4,
        ),
        Invalid(
            """
            import torch
            x = torch.randn(8, 3, requires_grad=True)
            cov = x.T @ x
            vals, vecs = torch.linalg.eigh(cov)
            loss = (x @ vecs).pow(2).mean()
            loss.backward()
            """,
            line=4,
        ),
    ]
    valid = [
        """
        import torch
        x = torch.randn(8, 3, requires_grad=True)
        cov = x.T @ x
        vals, _ = torch.linalg.eigh(cov)
        (vals.sum() + torch.linalg.svd(cov)[1].sum() + torch.linalg.eigvalsh(cov).max()).backward()
        """
    ]

    def on_call(self, ev: CallEvent) -> None:
        positions = _VECTOR_OUTPUTS.get(ev.qual or "")
        if positions is None and ev.method in ("eigh", "eig", "svd", "symeig") and ev.recv is not None and ev.recv.get(F.FW) == "torch":
            positions = (0, 2) if ev.method == "svd" else (1,)  # `a.svd()`, `a.eigh()` (old torch methods)
        if positions is None or not ev.result.live or not isinstance(ev.node, cst.Call):
            return
        if _vectors_used(self.ctx, ev.node, positions):
            self.mark(ev, ev.node, data=callee_last(ev.node))

    def report_site(self, site, data, ev) -> None:
        values = "singular values" if data == "svd" else "eigenvalues"
        self.report(
            site,
            f"the vectors of this `{data}` reach a differentiated value: their gradient has a factor 1/(lambda_i - "
            f"lambda_j) for each pair of {values}, so it is inf or NaN where two of them are equal (an identity-like or "
            f"diagonal matrix with repeated entries, rank-deficient data) and huge where they are close; differentiate "
            f"through the {values} only if the loss allows it, or keep them apart (a small distinct diagonal "
            f"perturbation)",
        )
