"""TensorFlow and Keras: GradientTape (watching, gradient, persistence), tf.Variable and its
`assign` methods, constants and casts, Keras layers, models, optimizers, losses, and
`compile(loss=...)` (the loss function is differentiated)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import libcst as cst

from .. import facts as F
from .. import kinds as K
from ..events import CallEvent, DiffKind, InplaceEvent

from ..interp.state import TapeInfo
from ..names import dotted_name
from ..queries import literal_dtype, truthy
from ..values import EMPTY, Cut, Origin, Val, combine, cut, join
from .arrays import NONDIFF_FUNCS
from .base import Evidence, Framework, Interp, OptimizerMethod, drawn, method_returns_nothing, table

if TYPE_CHECKING:  # pragma: no cover
    from ..interp.state import State

_E: frozenset = frozenset()

TF_TAPE = frozenset({"tensorflow.GradientTape", "tensorflow.autodiff.GradientTape"})
TF_VARIABLE = frozenset({
    "tensorflow.Variable", "keras.Variable", "keras.backend.Variable",
    # TF1's variables: `tf.get_variable(name, shape, initializer=...)` is as trainable as tf.Variable
    "tensorflow.compat.v1.Variable", "tensorflow.get_variable", "tensorflow.compat.v1.get_variable",
})
# TF1's functional layers build their variables (trainable unless `trainable=False`) and apply
# them: `tf.layers.dense(x, 1)` is a trained kernel times x. Layers without variables
# (pooling, dropout, flatten) are ordinary operations.
TF1_LAYER_PREFIXES = ("tensorflow.layers.", "tensorflow.compat.v1.layers.", "tensorflow.contrib.layers.")
TF1_LAYER_FUNCS = frozenset({
    "dense", "fully_connected", "conv1d", "conv2d", "conv3d", "conv2d_transpose", "conv3d_transpose",
    "separable_conv1d", "separable_conv2d", "convolution2d", "conv2d_in_plane", "batch_normalization", "batch_norm",
})
TF_CONST = frozenset(
    {
        "tensorflow.constant", "tensorflow.convert_to_tensor", "tensorflow.zeros", "tensorflow.ones",
        "tensorflow.fill", "tensorflow.range", "tensorflow.linspace", "tensorflow.eye",
        "tensorflow.random.normal", "tensorflow.random.uniform", "tensorflow.random.truncated_normal",
        "tensorflow.zeros_like", "tensorflow.ones_like",
    }
)
TF_PLACEHOLDER = frozenset({"tensorflow.placeholder", "tensorflow.compat.v1.placeholder"})
# Keras' backend gradients: `tf.compat.v1.gradients`, which TensorFlow 2 refuses in eager code
# and Keras 3 no longer has
KERAS_BACKEND_GRADIENTS = frozenset({"keras.backend.gradients", "keras.backend.tensorflow_backend.gradients"})
# what says a file runs TensorFlow 1 graph mode (where K.gradients/tf.gradients work): eager
# execution switched off, a Session, placeholders, TF1's compat module imported as tf, contrib
TF1_GRAPH_MODE = re.compile(
    r"disable_eager_execution|disable_v2_behavior|\bSession\(|\bget_session\(|\bset_session\(|\bplaceholder\("
    r"|compat\.v1\s+as\s+tf\b|\btf\.contrib\.|Graph\(\)\.as_default\(|\bInteractiveSession\b")
# TensorFlow 1 graph mode: symbolic gradients of a tensor (no tape)
TF_GRADIENTS = frozenset({"tensorflow.gradients", "tensorflow.compat.v1.gradients"})
TF_STOP_GRADIENT = frozenset({"tensorflow.stop_gradient", "keras.ops.stop_gradient", "keras.backend.stop_gradient"})
# the program asks TensorFlow to run its functions eagerly (`compile(run_eagerly=True)`,
# `model.run_eagerly = True`, `tf.config.run_functions_eagerly(True)`): a compiled loss,
# `train_step` or `@tf.function` then sees eager tensors
RUNS_EAGERLY = re.compile(r"\brun_eagerly\s*=\s*True|\brun_functions_eagerly\s*\(\s*True")
# a Keras model's methods that fit()/evaluate() run as a tf.function
KERAS_GRAPH_METHODS = frozenset({"train_step", "test_step", "predict_step"})


def traced_by_tf_function(fn: "cst.FunctionDef") -> bool:
    """`fn` is decorated with `@tf.function` (with or without arguments): TensorFlow traces it
    into a graph, whose tensors are symbolic."""
    for d in fn.decorators:
        e = d.decorator.func if isinstance(d.decorator, cst.Call) else d.decorator
        if _TF_FUNCTION.match(dotted_name(e) or ""):
            return True
    return False


_TF_FUNCTION = re.compile(r"^(?:(?:tf|tensorflow|def_function)\.)?function$")


# Keras' functional-API input: a symbolic tensor (a placeholder of the model's graph), not data
# (canonical names: `tf.keras.Input` and `tf_keras.Input` are known as `keras.Input`)
KERAS_INPUT = frozenset({"keras.Input", "keras.layers.Input", "keras.engine.input_layer.Input"})
# the Note a rule puts on what an Input makes (GL123); calling a functional model computes its
# outputs again from the tensors it is given, so they do not carry it
KERAS_SYMBOLIC_NOTE = "keras_symbolic"
# run Python/NumPy code as an op: no gradient is defined for them (tf.py_function, which runs
# TensorFlow ops eagerly, is differentiable and is not listed)
TF_NUMPY_FUNCTION = frozenset({"tensorflow.numpy_function", "tensorflow.py_func", "tensorflow.compat.v1.py_func", "tensorflow.compat.v1.numpy_function"})
# draws of categorical indices: int64 samples without a gradient (the logits may even be -inf)
TF_SAMPLING = frozenset({
    "tensorflow.random.categorical", "tensorflow.random.stateless_categorical", "tensorflow.multinomial",
    "tensorflow.compat.v1.multinomial", "tensorflow.compat.v1.random.categorical", "keras.random.categorical",
})
# Keras's fuzz factor (`K.epsilon()`, `tf.keras.backend.epsilon()`, Keras 3's `keras.config.epsilon()`):
# 1e-7 unless `set_epsilon` changed it, a positive constant all the same (`log(p + K.epsilon())`
# is as guarded as `log(p + 1e-7)`)
KERAS_EPSILON = frozenset({"keras.backend.epsilon", "keras.config.epsilon"})
TF_CAST = frozenset({"tensorflow.cast", "keras.ops.cast", "keras.backend.cast", "tensorflow.dtypes.cast"})
# Functions that run Python code outside the graph and register no gradient (`tf.py_func`,
# `tf.compat.v1.py_func`, `tf.numpy_function`); `tf.py_function` does have one. Last names.
TF_NO_GRADIENT_FUNCS = frozenset({"py_func", "numpy_function"})
# Integer and boolean dtypes, as `tf.cast`/`K.cast` spell them (`tf.int32`, 'int32', "bool").
TF_INT_DTYPES = frozenset({"int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "bool"})
KERAS_MODULE_BASES = ("keras.Model", "keras.layers.Layer", "keras.Layer", "keras.models.Model", "keras.Sequential", "tensorflow.Module",
                      # Keras 2's own module paths (`from keras.engine.topology import Layer`)
                      "keras.engine.topology.Layer", "keras.engine.base_layer.Layer", "keras.engine.Layer",
                      "keras.engine.training.Model", "keras.engine.Model")

# Keras: model.compile(..., loss=my_loss_function): the loss function is differentiated
# (`compile(optimizer=Adam(1e-3), loss=dice)`: one level of parentheses before the keyword)
_KERAS_LOSS = re.compile(r"\.compile\((?:[^()]|\([^()]*\))*?\bloss\s*=\s*[\[{(]?\s*[A-Za-z_]")
# ... and any `compile(loss="mse")`: a built-in loss differentiates the model's layers (a
# `Lambda` among them, GL801) even though no loss function of the file is differentiated
# (the prefilter also matches the text with strings blanked: `loss=     ,` is the same evidence;
# `compile(Adam(lr=1e-3), loss=...)`: one level of parentheses before the keyword)
_KERAS_NAMED_LOSS = re.compile(r"\.compile\((?:[^()]|\([^()]*\))*?\bloss\s*=\s*[\[{(]?\s*(?:['\"]|[,)\]}])")

# ... and a Keras loss function by its conventional signature, `def dice_loss(y_true, y_pred)`:
# Keras differentiates it with respect to `y_pred` wherever it is compiled (often another file)
_KERAS_LOSS_DEF = re.compile(r"\bdef\s+\w*(?:loss|Loss|LOSS|objective)\w*\s*\(\s*y_true\s*,\s*y_pred\b")
# ... or the function with that signature a loss-named factory defines (and returns, GL803
# checks): `def custom_loss(alpha):` then, within its next few lines, `def rhos(y_true, y_pred):`
_KERAS_LOSS_FACTORY = re.compile(
    r"\bdef\s+\w*(?:loss|Loss|LOSS|objective)\w*\s*\([^\n]*\n(?:[^\n]*\n){0,8}?[ \t]+def\s+\w+\s*\(\s*y_true\s*,\s*y_pred\b")


# ... and a Keras layer whose build() computes a tensor from its own attributes
# (`self.kernel = self.mu + self.sigma * eps`, `self.w_t = tf.transpose(self.w)`): the layer's
# variables are trained wherever it is used, and such a tensor is built once (GL120)
_KERAS_BUILD_COMPUTES = re.compile(
    r"def build\(\s*self[^\n]*\n(?:(?![ \t]*def )[^\n]*\n){0,80}?[ \t]+self\.\w+\s*=[ \t]*"
    r"(?:[^\n]*\bself\.\w+[ \t]*[-+*/@]|(?:tf|K|ops)\.[\w.]*\(\s*self\.)")


def tf_dtype(q: str | None) -> str | None:
    if not q:
        return None
    last = q.rsplit(".", 1)[-1]
    if last.startswith(("int", "uint")):
        return "int"
    if last == "bool":
        return "bool"
    if last in ("float64", "double"):
        return "float64"
    if last in ("float32", "float16", "bfloat16"):
        return last
    return None


# ------------------------------------------------------------------------------- calls
def _tape(it: Interp, ev: CallEvent, st: "State", allv: list[Val]) -> Val:
    kwargs = ev.kwargs
    p = truthy(kwargs.get("persistent"))
    w = truthy(kwargs.get("watch_accessed_variables"))
    if kwargs.get("watch_accessed_variables") is None:
        w = True
    return Val(kind=K.TAPE, attrs={F.TAPE: TapeInfo(ev.node, p, w)})


def _variable(it: Interp, ev: CallEvent, st: "State", allv: list[Val]) -> Val:
    node = ev.node
    kwargs = ev.kwargs
    init = ev.arg(0, "initial_value") or EMPTY
    dtype = kwargs.get("dtype")
    dt = tf_dtype(dtype.get(F.QUAL)) if dtype is not None and dtype.get(F.QUAL) else None
    if dt is None:
        dt = literal_dtype(ev.arg_node(0, "initial_value"), init, "float32") if ev.arg_node(0, "initial_value") is not None else init.get(F.DTYPE)
    trainable = kwargs.get("trainable")
    if ev.qual is not None and ev.qual.endswith("get_variable"):
        # `get_variable(name, shape=None, dtype=None, initializer=None, ...)`: the initial value is
        # the initializer, the dtype the third argument (float32 by default)
        init = ev.arg(3, "initializer") or EMPTY
        dtype = ev.arg(2, "dtype")
        dt = tf_dtype(dtype.get(F.QUAL)) if dtype is not None and dtype.get(F.QUAL) else None
        if dt is None and isinstance(dtype.get(F.CONST) if dtype is not None else None, str):
            dt = tf_dtype("tensorflow." + dtype.get(F.CONST))
        dt = dt or "float32"
        trainable = ev.arg(5, "trainable")
    o = Origin(K.ORIGIN_TFVAR, "", node, certain=True, framework="tf")
    if trainable is not None and trainable.get(F.CONST) is False:
        o = Origin(K.ORIGIN_TFVAR, "", node, certain=False, framework="tf")
    return Val(frozenset({o}), kind=K.TENSOR, attrs={F.FW: "tf", F.TFVAR: True, F.DTYPE: dt, F.CREATED: node, F.FRESH_ORIGIN: True, F.LEAF: True})


def _stop_gradient(it: Interp, ev: CallEvent, st: "State", allv: list[Val]) -> Val | None:
    if not ev.args:
        return None
    return cut(ev.args[0], Cut("detach", ev.node, hard=False), kind=K.TENSOR, attrs={F.FW: "tf"})


# Keras functions that return the NumPy value of a tensor (`K.eval(pred)`,
# `keras.ops.convert_to_numpy(pred)`): the result has left TensorFlow like `.numpy()`'s
KERAS_TO_NUMPY = frozenset({"keras.ops.convert_to_numpy", "keras.backend.eval", "keras.backend.get_value",
                            "keras.backend.batch_get_value"})


def _to_numpy(it: Interp, ev: CallEvent, st: "State", allv: list[Val]) -> Val:
    return cut(combine(allv), Cut("keras_to_numpy", ev.node, hard=True), kind=K.NDARRAY, attrs={F.FW: "np"})


def _numpy_function(it: Interp, ev: CallEvent, st: "State", allv: list[Val]) -> Val:
    # tf.numpy_function(func, inp, Tout): the values in `inp` leave the graph (a hard cut)
    inp = ev.arg(1, "inp") or EMPTY
    return cut(inp, Cut("numpy_function", ev.node, hard=True), kind=K.TENSOR, attrs={F.FW: "tf"})


def stays_tf_constant(vals: list[Val]) -> bool:
    """A result computed from TF constants and numbers only (`tf.constant(x) / 255.0`,
    `tf.reshape(c, ...)`): still a plain tensor that no tape watches unless told to."""
    return any(v.get(F.TFCONST) for v in vals) and all(v.get(F.TFCONST) or v.kind == K.NUMBER or not v.live for v in vals)


def _cast(it: Interp, ev: CallEvent, st: "State", allv: list[Val]) -> Val | None:
    if len(allv) < 2:
        return None
    dt = ev.arg(1, "dtype")
    dq = dt.get(F.QUAL) if dt is not None else None
    tdt = tf_dtype(dq) if dq else None
    x = ev.args[0] if ev.args else EMPTY
    if tdt in ("int", "bool"):
        return cut(x, Cut("int_cast", ev.node, hard=False), kind=K.TENSOR, attrs={F.FW: "tf", F.DTYPE: tdt})
    attrs = {F.FW: "tf", F.DTYPE: tdt or x.get(F.DTYPE)}
    if x.get(F.TFCONST) or (x.get(F.FW) == "np" or x.kind == K.NDARRAY) and not x.live:
        attrs[F.TFCONST] = True  # `tf.cast(np_image, tf.float32)`: a constant, made from NumPy data
    return it.op_result(ev.node, st, [x], kind=K.TENSOR, attrs=attrs)


def _constant(it: Interp, ev: CallEvent, st: "State", allv: list[Val]) -> Val:
    data = ev.arg(0, "value") or EMPTY
    attrs = {F.FW: "tf", F.TFCONST: True, F.CREATED: ev.node}
    if data.live:
        return cut(data, Cut("tensor_ctor", ev.node, hard=True), kind=K.TENSOR, attrs=attrs)
    return Val(_E, data.cuts, data.notes, _E, K.TENSOR, attrs)


def _placeholder(it: Interp, ev: CallEvent, st: "State", allv: list[Val]) -> Val:
    """`tf.placeholder(tf.float32, ...)`: TensorFlow 1's graph input, fed at run time. Like a
    function's parameter, it may be differentiated (`tf.gradients(y, x)` names it) or not: an
    origin that is not certain."""
    return Val(frozenset({Origin(K.ORIGIN_SYM, "", ev.node, certain=False, framework="tf")}), kind=K.TENSOR, attrs={F.FW: "tf"})


def _keras_epsilon(it: Interp, ev: CallEvent, st: "State", allv: list[Val]) -> Val:
    return Val(kind=K.NUMBER, attrs={F.CONST: 1e-7})


# ------------------------------------------------------------------------------- methods
def _tape_method(it: Interp, ev: CallEvent, st: "State", recv: Val, recv_name) -> Val:
    tape: TapeInfo = recv.attrs[F.TAPE]
    m = ev.method
    node = ev.node
    if m == "watch" and ev.args:
        x = ev.args[0]
        arg = ev.arg_nodes[0]
        # tape.watch(x) or tape.watch([x, t])
        names = [dotted_name(e.value) for e in arg.elements] if isinstance(arg, (cst.List, cst.Tuple)) else [dotted_name(arg)]
        for org in x.live:
            tape.watched.add(org)
        for xn in names:
            o = Origin(K.ORIGIN_WATCHED, xn or "", node, certain=True, framework="tf")
            tape.watched.add(o)
            if xn is not None:
                cur = it.lookup(xn, st)
                st.env[xn] = Val(cur.live | {o}, cur.cuts, cur.notes, cur.graphs, cur.kind or K.TENSOR,
                                 {**(cur.attrs or {}), F.WATCHED_BY: frozenset({id(tape)})})
        return EMPTY
    if m in ("gradient", "jacobian", "batch_jacobian"):
        target = ev.arg(0, "target") or EMPTY
        sources = ev.arg(1, "sources") or EMPTY
        used_before = tape in st.used  # the object, not its id: a freed tape's id is reused by the next one
        # inside another tape that records: the gradient is differentiable again (a gradient penalty)
        recorded = any(t is not tape and t.active for t in st.ctx.tapes)
        it.differentiate(ev, st, DiffKind.TAPE, target, ev.arg_node(0, "target"), sources=sources, source_node=ev.arg_node(1, "sources"),
                         tape=tape, tape_method=m, tape_name=recv_name, tape_used_before=used_before, create_graph=recorded)
        if not tape.persistent:
            st.used = st.used | {tape}
            # inside its own `with`, a non-persistent tape stops recording here (TensorFlow pops it)
            tape.active = False
        return _gradient_result(node, st, target, sources if recorded else None)
    if m in ("stop_recording", "reset"):
        return Val(kind=K.CTX)
    return EMPTY


def minimize_callable(it: Interp, ev: CallEvent, st: "State", fn: Val) -> None:
    """`optimizer.minimize(loss_fn, var_list)` (TensorFlow 2 / Keras): the optimizer runs
    `loss_fn` under a GradientTape of its own and differentiates what it returns with respect to
    `var_list`. A tensor computed before the call and only returned by the callable
    (`minimize(lambda: cost, [w])`) was not recorded by that tape (GL118)."""
    info = fn.get(F.FN)
    if info is None:
        return
    tape = TapeInfo(ev.node, persistent=False, watch_accessed=True)
    tape.active, tape.with_node = True, ev.node
    saved = st.ctx
    st.ctx = st.ctx.replace(tapes=st.ctx.tapes + (tape,))
    try:
        target = it.call_function(info, ev, st, list(fn.get(F.PARTIAL_ARGS) or ()), {}, None)
    finally:
        st.ctx = saved
        tape.active = False
    it.differentiate(ev, st, DiffKind.TAPE, target, ev.arg_node(0, "loss"), sources=ev.arg(1, "var_list"),
                     source_node=ev.arg_node(1, "var_list"), tape=tape, tape_method="gradient", tape_name=None,
                     tape_used_before=False)


def _gradients(it: Interp, ev: CallEvent, st: "State", allv: list[Val]) -> Val:
    """`tf.gradients(ys, xs)`: TensorFlow 1's symbolic differentiation of `ys`."""
    target = ev.arg(0, "ys")
    if target is None:
        return EMPTY
    node = ev.node
    it.differentiate(ev, st, DiffKind.TF_GRAPH, target, ev.arg_node(0, "ys"), sources=ev.arg(1, "xs"), source_node=ev.arg_node(1, "xs"),
                     create_graph=True)  # symbolic: the gradients are differentiable again
    return _gradient_result(node, st, target, ev.arg(1, "xs") or EMPTY)


def _gradient_result(node, st: "State", target: Val, sources: Val | None) -> Val:
    """What tape.gradient / tf.gradients return. `sources` given: the gradients are themselves
    differentiable (a TF1 symbolic graph, or a tape inside another tape that records the
    computation: a gradient penalty), so they depend on what the target and the sources did."""
    attrs = {F.FW: "tf", F.GRAD_RESULT: node}
    if sources is None:
        elem = Val(kind=K.TENSOR, attrs=attrs)
    else:
        live = target.live | sources.live | frozenset(o for item in (sources.get(F.ITEMS) or ()) for o in item.live)
        elem = Val(live, graphs=frozenset({(node, st.ctx.key)}), kind=K.TENSOR, attrs=attrs)
    return Val(elem.live, graphs=elem.graphs, kind=K.GRAD, attrs={**attrs, F.ELEM: elem})


def _trainable_variables(it: Interp, ev: CallEvent, st: "State", recv: Val, recv_name) -> Val:
    return Val(recv.live, kind=K.PARAMS, attrs={F.FW: recv.get(F.FW)})


def _add_loss(it: Interp, ev: CallEvent, st: "State", recv: Val, recv_name) -> Val:
    """`self.add_loss(t)` in a layer's call(): `layer.losses` (what a training loop adds to its
    loss, `loss + sum(layer.losses)`) holds t."""
    term = ev.arg(0, "loss")
    if recv_name is not None and term is not None:
        key = f"{recv_name}.losses"
        held = [v for v in (st.env.get(key), term) if v is not None]
        st.env[key] = combine(held, kind=K.LIST, attrs={F.ELEM: join([it.iter_val(v) if v.kind == K.LIST else v for v in held])})
    return EMPTY


def _get_layer(it: Interp, ev: CallEvent, st: "State", recv: Val, recv_name) -> Val:
    """`model.get_layer("conv5")`: one of the model's layers (part of it: its weights are the
    model's), with the symbolic `input`/`output` of the model's graph."""
    return Val(recv.live, kind=K.MODULE, attrs={F.FW: "tf"})


def _predict(it: Interp, ev: CallEvent, st: "State", recv: Val, recv_name) -> Val:
    return cut(combine([recv] + ev.args), Cut("predict", ev.node, hard=True), kind=K.NDARRAY, attrs={F.FW: "np"})


def _compile(it: Interp, ev: CallEvent, st: "State", recv: Val, recv_name) -> Val:
    loss = ev.arg(None, "loss")
    if loss is not None:
        keras_loss(it, loss, ev, st)
    return EMPTY


def _call(it: Interp, ev: CallEvent, st: "State", recv: Val, recv_name) -> Val:
    return it.call_module(recv, ev, st)


def keras_loss(it: Interp, loss: Val, ev: CallEvent, st: "State") -> None:
    """`model.compile(loss=f)`: f is differentiated with respect to its prediction argument."""
    # a function, or an instance of a `keras.losses.Loss` subclass (Keras calls its
    # `call(y_true, y_pred)`); alone, in a list, or in a dict by output name
    fns: list = []
    for v in (loss, *(loss.get(F.ITEMS) or ()), *(loss.get(F.KEYS) or {}).values()):
        if v.kind == K.FUNCTION:
            fns.append(v.attrs[F.FN])
            continue
        info = v.get(F.CLS)
        keras_loss_class = info is not None and any(b.startswith("keras.losses.") for b in getattr(info, "bases", ()))
        method = info.find_method("call") if keras_loss_class else None
        if method is not None and not method.is_static and len([p for p in method.params if p[1] == "pos"]) >= 3:
            fns.append((method, v))
    for entry in fns:
        fn, self_val = entry if isinstance(entry, tuple) else (entry, None)
        pos = [p for p in fn.params if p[1] == "pos"][1 if self_val is not None else 0:]
        if len(pos) < 2:
            continue
        o = Origin(K.ORIGIN_KERASOUT, "y_pred", fn.node, certain=True, framework="tf")
        params = {pos[0][0]: Val(kind=K.TENSOR, attrs={F.FW: "tf"}), pos[1][0]: Val(frozenset({o}), kind=K.TENSOR, attrs={F.FW: "tf"})}
        if self_val is not None:
            params[fn.params[0][0]] = self_val
        fake = CallEvent(ev.node, st.ctx, None, None, None, Val(kind=K.FUNCTION, attrs={F.FN: fn}), [], {}, [], {})
        ret = it.call_function(fn, fake, st.fork(), [], {}, self_val, params_override=params)
        it.differentiate(None, st.fork(), DiffKind.KERAS, ret, None, node=fn.node, fn=fn, compile_call=ev.node)


# Euclidean norms whose gradient at the zero vector is NaN (tensorflow#12071)
NAN_AT_ZERO_NORMS = frozenset({"tensorflow.norm", "tensorflow.linalg.norm", "tensorflow.math.reduce_euclidean_norm",
                               "tensorflow.linalg.global_norm", "tensorflow.compat.v1.norm"})
# (measured, TF 2.21 / Keras 3.15: NaN gradient for constant input, as jnp.std)
NAN_AT_ZERO_STDS = frozenset({"tensorflow.math.reduce_std", "tensorflow.keras.backend.std", "keras.backend.std", "keras.ops.std"})
_FULL_REDUCTIONS = frozenset({"reduce_mean", "reduce_sum", "reduce_max", "reduce_min", "reduce_prod", "reduce_logsumexp",
                              "reduce_euclidean_norm", "norm"})


# Keras activations by name (`Dense(4, activation="softmax")`, `Activation("sigmoid")`,
# `activation=tf.nn.softmax`) and the layer classes that are one: what the layer's call
# computes last (F.ACTS_AS, the functional op the rules know)
_KERAS_ACTIVATIONS = frozenset({"softmax", "sigmoid", "relu", "tanh", "softplus", "elu", "selu", "log_softmax"})
_KERAS_ACTIVATION_LAYERS = {"Softmax": "softmax", "ReLU": "relu"}


def _activation_name(v: Val | None) -> str | None:
    if v is None:
        return None
    c = v.get(F.CONST)
    if isinstance(c, str):
        return c if c in _KERAS_ACTIVATIONS else None
    q = v.get(F.QUAL) if v.kind == K.REF else None
    last = q.rsplit(".", 1)[-1] if isinstance(q, str) else None
    return last if last in _KERAS_ACTIVATIONS else None


def _keras_acts_as(last: str, ev: CallEvent) -> str | None:
    if last in _KERAS_ACTIVATION_LAYERS:
        return _KERAS_ACTIVATION_LAYERS[last]
    if last == "Activation":
        return _activation_name(ev.arg(0, "activation"))
    if last == "Sequential":
        layers = ev.arg(0, "layers")
        items = layers.get(F.ITEMS) if layers is not None else None
        return items[-1].get(F.ACTS_AS) if items else None
    return _activation_name(ev.kwargs.get("activation"))


class TensorFlow(Framework):
    name = "tensorflow"
    tag = "tf"
    heads = ("tensorflow", "keras")
    aliases = {
        "tensorflow.python.keras": "keras",
        "tensorflow.keras": "keras",
        "tf_keras": "keras",
        "keras.src": "keras",
    }
    evidence = Evidence(
        words=("Tape", "compile(", "y_pred", "grad", "minimize", "def build("),
        literals=("GradientTape", ".gradient(", "tf.gradients(", ".compat.v1.gradients(", ".minimize(", "K.gradients(", "backend.gradients("),
        patterns=(("compile(", _KERAS_LOSS), ("compile(", _KERAS_NAMED_LOSS), ("y_pred", _KERAS_LOSS_DEF), ("y_pred", _KERAS_LOSS_FACTORY),
                  ("def build(", _KERAS_BUILD_COMPUTES)),
    )
    members = {
        **table(TF_TAPE, _tape),
        **table(TF_GRADIENTS, _gradients),
        **table(TF_VARIABLE, _variable),
        **table(TF_STOP_GRADIENT, _stop_gradient),
        **table(TF_CAST, _cast),
        **table(TF_NUMPY_FUNCTION, _numpy_function),
        **table(KERAS_TO_NUMPY, _to_numpy),
        **table(TF_CONST, _constant),
        **table(TF_PLACEHOLDER, _placeholder),
        **table(KERAS_EPSILON, _keras_epsilon),
    }
    module_methods = {
        "trainable_variables": _trainable_variables,
        "predict": _predict,
        "predict_on_batch": _predict,
        "compile": _compile,
        "get_layer": _get_layer,
        "add_loss": _add_loss,
        **table(("summary", "save", "save_weights", "load_weights", "fit", "evaluate", "build"), method_returns_nothing),
        "call": _call,
    }
    module_like_methods = frozenset({"predict", "compile", "trainable_variables", "fit", "evaluate", "predict_on_batch", "get_layer"})
    optimizer_methods = {
        "minimize": OptimizerMethod("step", needs_args=True, differentiates=True),
        "apply_gradients": OptimizerMethod("step"),
    }
    receiver_methods = {K.TAPE: _tape_method}

    def class_roles(self, qual: str) -> frozenset[str]:
        roles = set()
        if qual in KERAS_MODULE_BASES or qual.startswith("keras.layers."):
            roles.add("module")
        if qual.startswith("keras.") or qual.startswith("tensorflow."):
            roles.add("keras")
        return frozenset(roles)

    def call_other(self, it: Interp, q: str, ev: CallEvent, st: "State", allv: list[Val]) -> Val:
        node = ev.node
        last = q.rsplit(".", 1)[-1]
        # a layer, a model, or a pretrained model of keras.applications (`InceptionV3(...)`,
        # `ResNet50(...)`): a Keras model with weights and symbolic `input`/`output`
        if (q.startswith("keras.") or q.startswith("tensorflow.keras.")) and last[:1].isupper() and (
                "layers" in q or "models" in q or "applications" in q or last in ("Sequential", "Model")):
            acts_as = _keras_acts_as(last, ev)
            made: dict = {F.ACTS_AS: acts_as} if acts_as else {}
            fn = ev.arg(0, "function") if last == "Lambda" else None
            if fn is not None and fn.kind == K.FUNCTION and fn.get(F.FN) is not None:
                made[F.RUNS] = fn  # `Lambda(euclidean_distance)([a, b])` runs it on [a, b]
            outputs = ev.arg(1, "outputs") if last == "Model" else None
            if outputs is not None and outputs.kind == K.TENSOR and ev.arg(0, "inputs") is not None:
                # `Model([a, b], dist)`: calling it computes dist, from the tensors given, not the placeholders
                made[F.KERAS_OUTPUTS] = outputs.with_(notes=frozenset(n for n in outputs.notes if n.kind != KERAS_SYMBOLIC_NOTE))
            return it.new_module(node, q, fw="tf", attrs=made or None)
        if (q.startswith("keras.optimizers.") and last[:1].isupper()
                or q.startswith(("tensorflow.train.", "tensorflow.compat.v1.train.")) and last.endswith("Optimizer")):
            return Val(kind=K.OPTIMIZER, attrs={F.OPT_PARAMS: frozenset(), F.QUAL: q, F.FW: "tf", F.CREATED: node})
        if q.startswith("keras.losses.") and last[:1].isupper():
            return Val(kind=K.INSTANCE, attrs={F.LOSS_MODULE: last, F.FW: "tf"})
        if last in NONDIFF_FUNCS:
            return cut(combine(allv), Cut(last, node, hard=False), kind=K.TENSOR, attrs={F.FW: "tf"})
        if q in TF_SAMPLING:
            return drawn(allv, node, {F.FW: "tf", F.DTYPE: "int"})
        if q.startswith("tensorflow.data."):
            return Val(kind=K.INSTANCE)
        if q.startswith(TF1_LAYER_PREFIXES) and last in TF1_LAYER_FUNCS:
            trainable = ev.kwargs.get("trainable")
            if trainable is None or trainable.get(F.CONST) is not False:
                o = Origin(K.ORIGIN_TFVAR, "", node, certain=True, framework="tf")
                kernel = Val(frozenset({o}), kind=K.TENSOR, attrs={F.FW: "tf", F.TFVAR: True, F.CREATED: node})
                return it.op_result(node, st, allv + [kernel], kind=K.TENSOR, attrs={F.FW: "tf"})
        attrs: dict = {F.FW: "tf"}
        if stays_tf_constant(allv):
            attrs[F.TFCONST] = True
        if last in _FULL_REDUCTIONS and len(ev.args) == 1 and not any(k in ev.kwargs for k in ("axis", "reduction_indices")):
            attrs[F.SCALAR] = True  # `tf.reduce_mean(x)`: over every axis, a 0-dim tensor
        return it.op_result(node, st, allv, kind=K.TENSOR, attrs=attrs)

    def tensor_method(self, it: Interp, ev: CallEvent, st: "State", recv: Val, m: str, recv_name, recv_node) -> Val | None:
        if m in ("assign", "assign_add", "assign_sub") and (recv.get(F.TFVAR) or recv.get(F.FW) == "tf"):
            # a variable update is not recorded by the tape: what is assigned is cut from it
            c = Cut("assign", ev.node, hard=True)
            new_cuts = recv.cuts
            for a in ev.args:
                new_cuts = new_cuts | frozenset((o, c) for o in a.live) | a.cuts
            if recv_name is not None:
                st.env[recv_name] = Val(recv.live, new_cuts, recv.notes, recv.graphs, recv.kind, recv.attrs)
            it.emit(InplaceEvent(ev.node, st.ctx, recv, recv_node, m, False, recv_name))
            return EMPTY
        return None


TENSORFLOW = TensorFlow()
