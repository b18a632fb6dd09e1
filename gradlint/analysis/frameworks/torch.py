"""PyTorch: grad modes, factories and dtypes, autograd.grad/backward, optimizers and
GradScaler, nn modules and their methods, and the tensor methods (the array ladder's first and
largest part: detach, conversions, casts, in-place `_` methods, reductions, views).

Why this module is long: one library's semantics live in one place (docs/architecture.md), and
PyTorch is the largest library gradlint knows. It is mostly tables, and one ordered ladder per
entry point (`call_other`, `tensor_method`) whose order is part of the meaning (a name is read
by the first rule that matches it), which splitting would scatter.
"""

from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING, NamedTuple

import libcst as cst

from .. import facts as F
from .. import kinds as K
from ..events import CallEvent, DiffKind, InplaceEvent
from ..facts import Op, propagate
from ..names import dotted_name, NOCONST, OPS, fold, in_place_name, literal
from ..walk import walk
from ..queries import dtype_of, freeze, is_gradient, literal_dtype, numel, param_origins, truthy
from ..values import EMPTY, Cut, Note, Origin, Val, combine, cut, opaque
from .arrays import FLOAT_CAST_METHODS, factory_exact, guarded_after_call, HARD_CUT_METHODS, INT_CAST_METHODS, META_METHODS, NONDIFF_FUNCS, REDUCTIONS
from .base import (
    Evidence, Framework, Interp, OptimizerMethod, drawn, method_returns_nothing, method_returns_receiver,
    returns_first_arg, returns_nothing, table,
)

if TYPE_CHECKING:  # pragma: no cover
    from ..interp.state import FunctionInfo, State

_E: frozenset = frozenset()

# ------------------------------------------------------------------------------- tables
TORCH_FACTORIES = frozenset(
    {
        "torch.randn", "torch.rand", "torch.zeros", "torch.ones", "torch.empty", "torch.full",
        "torch.arange", "torch.linspace", "torch.logspace", "torch.eye", "torch.randint",
        "torch.randperm", "torch.normal", "torch.tensor", "torch.as_tensor", "torch.from_numpy",
        "torch.zeros_like", "torch.ones_like", "torch.empty_like", "torch.full_like",
        "torch.randn_like", "torch.rand_like", "torch.randint_like", "torch.Tensor",
        "torch.FloatTensor", "torch.DoubleTensor", "torch.LongTensor", "torch.HalfTensor",
        "torch.IntTensor", "torch.BoolTensor", "torch.cuda.FloatTensor", "torch.scalar_tensor", "torch.testing.make_tensor",
    }
)
# Factories that copy the *values* of their data argument into a new leaf (graph dropped).
TORCH_VALUE_COPIES = frozenset(
    {
        "torch.tensor", "torch.as_tensor", "torch.Tensor", "torch.FloatTensor", "torch.DoubleTensor",
        "torch.HalfTensor", "torch.cuda.FloatTensor", "torch.scalar_tensor", "torch.from_numpy",
    }
)
# Factories whose result does not depend on the values of their argument.
TORCH_SHAPE_ONLY = frozenset(
    {
        "torch.zeros_like", "torch.ones_like", "torch.empty_like", "torch.full_like",
        "torch.randn_like", "torch.rand_like", "torch.randint_like",
    }
)
DEFAULT_INT_FACTORIES = frozenset({"torch.randint", "torch.randperm", "torch.LongTensor", "torch.IntTensor", "torch.BoolTensor"})
# the typed constructors, given sizes as positional integers (uninitialised, like torch.empty)
_LEGACY_CONSTRUCTORS = ("torch.FloatTensor", "torch.DoubleTensor", "torch.LongTensor", "torch.HalfTensor", "torch.IntTensor",
                        "torch.BoolTensor", "torch.cuda.FloatTensor", "torch.Tensor")
_TYPED_CONSTRUCTOR_DTYPES = {"torch.DoubleTensor": "float64", "torch.FloatTensor": "float32", "torch.cuda.FloatTensor": "float32",
                              "torch.HalfTensor": "float16"}
# factories whose shape is given by their positional arguments (or `size=`)
_SHAPED_FACTORIES = ("torch.randn", "torch.rand", "torch.zeros", "torch.ones", "torch.empty", "torch.full", "torch.randint", "torch.normal")

TORCH_NO_GRAD = frozenset({"torch.no_grad", "torch.autograd.no_grad", "torch.autograd.grad_mode.no_grad"})
TORCH_ENABLE_GRAD = frozenset({"torch.enable_grad", "torch.autograd.enable_grad"})
TORCH_INFERENCE = frozenset({"torch.inference_mode", "torch.autograd.inference_mode"})
TORCH_SET_GRAD = frozenset({"torch.set_grad_enabled", "torch.autograd.set_grad_enabled"})

TORCH_AUTOGRAD_GRAD = frozenset({"torch.autograd.grad"})
AUTOGRAD_GRAD_CREATE_GRAPH_AT = 4  # torch.autograd.grad(outputs, inputs, grad_outputs, retain_graph, create_graph)
TORCH_AUTOGRAD_BACKWARD = frozenset({"torch.autograd.backward"})
TORCH_PARAMETER = frozenset({"torch.nn.Parameter", "torch.nn.parameter.Parameter"})
TORCH_DETACH_FUNCS = frozenset({"torch.detach"})
# Only names whose head is `torch` reach this overlay: the other prefixes are kept for the
# overlays of those libraries (today their optimizers are unknown objects).
TORCH_OPTIMIZER_PREFIXES = ("torch.optim.", "torch_optimizer.", "bitsandbytes.optim.", "apex.optimizers.", "transformers.optimization.", "timm.optim.")
TORCH_OPTIMIZER_NON_OPT = frozenset({"lr_scheduler", "swa_utils", "Optimizer"})
TORCH_GRADSCALER = frozenset({"torch.cuda.amp.GradScaler", "torch.amp.GradScaler", "torch.GradScaler", "torch.cpu.amp.GradScaler"})
TORCH_AUTOCAST = frozenset({"torch.autocast", "torch.cuda.amp.autocast", "torch.amp.autocast", "torch.cpu.amp.autocast"})
# the recurrent layers whose cuDNN backward needs training mode (GL515)
TORCH_RNN_CLASSES = frozenset({"torch.nn.LSTM", "torch.nn.GRU", "torch.nn.RNN"})
TORCH_CHECKPOINT = frozenset({"torch.utils.checkpoint.checkpoint", "torch.utils.checkpoint.checkpoint_sequential"})
TORCH_GRADCHECK = frozenset(
    {"torch.autograd.gradcheck", "torch.autograd.gradgradcheck", "torch.autograd.gradcheck.gradcheck", "torch.autograd.gradcheck.gradgradcheck"}
)
TORCH_CLIP = frozenset({"torch.nn.utils.clip_grad_norm_", "torch.nn.utils.clip_grad_value_", "torch.nn.utils.clip_grad_norm",
                        "torch.nn.utils.clip_grads_with_norm_"})  # (torch 2.6: get_total_norm, then clip_grads_with_norm_)
_STACKS = frozenset({"torch.stack", "torch.cat", "torch.concat", "torch.concatenate", "torch.vstack", "torch.hstack"})
_NO_VALUE = frozenset(
    {
        "torch.manual_seed", "torch.cuda.is_available", "torch.cuda.device_count", "torch.save", "torch.load",
        "torch.get_default_dtype", "torch.is_tensor", "torch.is_grad_enabled", "torch.numel", "torch.Size",
        "torch.cuda.synchronize", "torch.cuda.memory_allocated",
    }
)
# "is this an export?": code under `if torch.jit.is_tracing():` runs when a model is traced,
# scripted or exported to ONNX, never in a training step (the eager branch is the trained one)
TORCH_EXPORTING = frozenset({"torch.jit.is_tracing", "torch.jit.is_scripting", "torch.onnx.is_in_onnx_export",
                             "torch._C._get_tracing_state"})
_FULL_REDUCTIONS = ("sum", "mean", "norm", "dot", "trace", "logsumexp", "prod", "std", "var", "max", "min", "amax", "amin")
_LOSSES = ("mse_loss", "l1_loss", "cross_entropy", "nll_loss", "binary_cross_entropy", "binary_cross_entropy_with_logits", "smooth_l1_loss", "kl_div", "huber_loss")


def is_loss_function(q: str) -> bool:
    """`F.mse_loss`, `torch.nn.functional.cross_entropy`: a loss of (input, target)."""
    last = q.rsplit(".", 1)[-1]
    return q.startswith("torch.nn.functional.") and last.endswith(("_loss", "entropy", "loss")) or last in _LOSSES

_INSPECTS_GRAPH = re.compile(
    r"\bprint\s*\((?:[^()\n]|\([^()\n]*\))*\.(?:grad_fn|requires_grad)\s*[,)]"
    r"|\bassert\s+[^\n#]*\.(?:requires_grad\s*(?:$|[,#])|grad_fn\s+is\s+not\s+None)", re.M)

TORCH_MODULE_BASES = ("torch.nn.Module", "torch.nn.modules.module.Module")
AUTOGRAD_FUNCTION_BASES = ("torch.autograd.Function", "torch.autograd.function.Function")
# a torch.distributions Transform: calling the instance (`t(x)`) runs its `_call(x)`
TRANSFORM_BASES = ("torch.distributions.transforms.Transform", "torch.distributions.Transform")
TRANSFORM_CALL = "_call"
OPTIMIZER_BASES = ("torch.optim.Optimizer", "torch.optim.optimizer.Optimizer")

# torch functions that *call* the module they are given and return its output
_CALL_THEIR_MODULE = frozenset({
    "torch.utils.checkpoint.checkpoint", "torch.utils.checkpoint.checkpoint_sequential", "torch.func.functional_call",
    "torch.nn.utils.stateless.functional_call", "torch.func.vmap", "torch.vmap", "torch.func.grad", "torch.func.jacrev",
    "torch.func.jacfwd", "torch.func.vjp", "torch.func.jvp", "torch.autograd.functional.jacobian",
    "torch.autograd.functional.hessian", "torch.autograd.functional.vjp", "torch.autograd.functional.jvp",
})

# Operations that keep an *input* for their backward pass (so changing that input in place
# afterwards breaks the backward). Ops that save only their output (relu, sigmoid, tanh,
# exp, softmax), only sizes/indices (sum, mean, cumsum, where, cat, views) are left out.
SAVES_INPUT = frozenset({
    "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d",
    "linear", "bilinear", "matmul", "mm", "bmm", "mv", "einsum", "addmm", "baddbmm", "mul",
    "multiply", "div", "divide", "true_divide", "pow", "log", "log1p", "log2", "log10", "sin",
    "cos", "tan", "atan", "atan2", "asin", "acos", "sinh", "cosh", "prod", "norm", "dist",
    "cdist", "batch_norm", "layer_norm", "group_norm", "instance_norm", "std", "var",
    "gelu", "silu", "leaky_relu", "prelu", "softplus", "hardswish", "mish", "erf", "abs",
    "clamp", "clip", "square", "lerp", "addcmul", "addcdiv", "cross_entropy", "nll_loss",
    "mse_loss", "l1_loss", "smooth_l1_loss", "huber_loss", "binary_cross_entropy",
    "binary_cross_entropy_with_logits", "kl_div", "cosine_similarity", "pairwise_distance",
    "grid_sample", "interpolate", "max_pool2d", "max_pool1d", "max_pool3d", "scaled_dot_product_attention",
    "dot", "inner", "outer", "vdot", "vector_norm", "matrix_norm", "logsumexp", "maximum", "minimum", "fmax", "fmin",
    "cumprod", "hardtanh", "relu6", "logsigmoid", "softsign", "glu", "rms_norm",
})
# products of two tensors: each operand is kept only for the *other* one's gradient
# (`bmm(q, v)` with a `q` that needs none does not keep `v`)
SAVES_FOR_OTHER = frozenset({"mm", "bmm", "matmul", "mul", "multiply", "mv", "dot", "inner", "outer", "vdot"})
# Module classes whose forward keeps no input for backward.
OUTPUT_ONLY_MODULES = frozenset({
    "ReLU", "Sigmoid", "Tanh", "Softmax", "LogSoftmax", "ELU", "ReLU6", "Hardtanh", "Dropout", "Dropout2d", "Identity",
    "Flatten", "Unflatten", "AdaptiveAvgPool2d", "AvgPool2d", "Upsample",
})
# torch.nn classes whose instances own trainable parameters by default (a layer kept where
# nn.Module does not register it, or created anew in forward(), loses exactly these).
TRAINABLE_MODULES = frozenset({
    "Linear", "Bilinear", "LazyLinear", "Conv1d", "Conv2d", "Conv3d", "ConvTranspose1d", "ConvTranspose2d",
    "ConvTranspose3d", "LazyConv1d", "LazyConv2d", "LazyConv3d", "Embedding", "EmbeddingBag", "RNN", "LSTM", "GRU",
    "RNNCell", "LSTMCell", "GRUCell", "LayerNorm", "GroupNorm", "BatchNorm1d", "BatchNorm2d", "BatchNorm3d",
    "MultiheadAttention", "Transformer", "TransformerEncoder", "TransformerDecoder", "TransformerEncoderLayer",
    "TransformerDecoderLayer", "PReLU", "RMSNorm", "Sequential", "ModuleList", "ModuleDict",
})
# Operations (and module classes) that keep their *output* for backward.
SAVES_OUTPUT = frozenset({"softmax", "log_softmax", "sigmoid", "tanh", "exp", "relu", "elu", "selu", "sqrt", "rsqrt", "reciprocal", "expm1", "celu"})
SAVES_OUTPUT_MODULES = frozenset({"Softmax", "LogSoftmax", "Sigmoid", "Tanh", "ReLU", "ELU", "SELU", "CELU"})
# torch.nn classes that are a functional op as an object: calling one is the op (F.ACTS_AS)
MODULE_FUNCTIONAL = {
    "Softmax": "softmax", "LogSoftmax": "log_softmax", "Sigmoid": "sigmoid", "LogSigmoid": "logsigmoid",
    "Tanh": "tanh", "ReLU": "relu", "ELU": "elu", "SELU": "selu", "CELU": "celu", "Softplus": "softplus",
}

_TORCH_DTYPES = {
    "torch.float64": "float64", "torch.double": "float64", "torch.float32": "float32",
    "torch.float": "float32", "torch.float16": "float16", "torch.half": "float16",
    "torch.bfloat16": "bfloat16", "torch.int64": "int", "torch.long": "int", "torch.int32": "int",
    "torch.int": "int", "torch.int16": "int", "torch.int8": "int", "torch.uint8": "int",
    "torch.bool": "bool", "torch.complex64": "complex64", "torch.complex128": "complex128",
    "torch.cdouble": "complex128", "torch.cfloat": "complex64",
}

# Reductions and orderings that return a named tuple (values, indices) (`torch.max(x, 1)`,
# `x.topk(k)`): the values are differentiable, the indices are integers without a gradient
# (GL410 when a loss is computed from them).
_VALUES_INDICES = frozenset({"max", "min", "median", "nanmedian", "mode", "sort", "topk", "kthvalue", "cummax", "cummin"})
_ALWAYS_VALUES_INDICES = frozenset({"sort", "topk", "kthvalue", "mode", "cummax", "cummin"})

_REDUCING_METHODS = ("sum", "mean", "norm", "prod", "max", "min", "amax", "amin", "std", "var", "logsumexp", "all", "any", "nansum", "nanmean", "median")
_VIEW_METHODS = (
    "view", "reshape", "flatten", "view_as", "reshape_as", "squeeze", "unsqueeze", "permute", "transpose", "t", "expand",
    "expand_as", "narrow", "select", "unfold", "chunk", "split", "unbind", "ravel", "__getitem__",
)
# views that keep every element (a batch dimension too): not narrow/select/chunk/an index
_ALL_ELEMENT_VIEWS = frozenset({
    "view", "reshape", "flatten", "view_as", "reshape_as", "squeeze", "unsqueeze", "permute", "transpose", "t",
    "expand", "expand_as", "ravel",
})
VIEW_METHODS = frozenset(_VIEW_METHODS)  # (for rules: what `x.unsqueeze(0)` returns is a view)
# methods whose result is always a view of the receiver (not reshape/flatten/contiguous, which
# copy when they must): what an operation saves of their result it saves of the receiver's storage
ALWAYS_VIEWS = frozenset({
    "view", "view_as", "squeeze", "unsqueeze", "permute", "transpose", "t", "expand", "expand_as", "narrow",
    "select", "unfold", "movedim", "moveaxis", "swapaxes", "swapdims", "diagonal",
})


def viewed_name(node) -> cst.Name | None:
    """The name a slice or view expression reads (`x[:, 0]`, `v.permute(0, 2, 1)`, `w.T`), else None."""
    peeled = False
    while True:
        if isinstance(node, cst.Subscript):
            node = node.value
        elif isinstance(node, cst.Attribute) and node.attr.value in ("T", "mT"):
            node = node.value
        elif isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value in ALWAYS_VIEWS:
            node = node.func.value
        else:
            break
        peeled = True
    return node if peeled and isinstance(node, cst.Name) else None


# out-of-place methods with an in-place twin (`clamp`/`clamp_`): the receiver is left unchanged
OUT_OF_PLACE_METHODS = frozenset({
    "detach", "clamp", "clip", "clamp_min", "clamp_max", "add", "sub", "mul", "div", "neg", "abs", "sqrt", "exp",
    "masked_fill", "index_fill", "index_add", "index_copy", "scatter", "scatter_add", "fill_diagonal", "zero",
    "normal", "uniform", "t", "squeeze", "unsqueeze", "transpose", "renorm", "lerp", "sign", "relu",
})
_MOVE_METHODS = ("to", "cuda", "cpu", "type", "type_as", "contiguous", "pin_memory", "requires_grad")

# functions whose result has the broadcast shape of their tensor arguments (0-dim in, 0-dim out)
_POINTWISE = frozenset({
    "abs", "acos", "add", "asin", "atan", "atan2", "ceil", "clamp", "clip", "cos", "cosh", "div", "erf", "exp", "expm1",
    "floor", "log", "log10", "log1p", "log2", "logaddexp", "maximum", "minimum", "mul", "neg", "pow", "reciprocal", "relu",
    "round", "rsqrt", "sigmoid", "sign", "sin", "sinh", "softplus", "sqrt", "square", "sub", "tan", "tanh", "true_divide",
    "where", "gelu", "silu", "elu", "leaky_relu", "logit", "hypot",
})


# ------------------------------------------------------------------- the pinned version
_PIN_FILES = ("requirements.txt", "requirements-dev.txt", "requirements/base.txt", "pyproject.toml", "setup.py", "setup.cfg",
              "environment.yml", "environment.yaml")
# `torch==1.13.1`, `torch<2`, `torch<=1.12`, `torch~=1.10`, `"torch>=1.8,<2.0"`
_TORCH_PIN_1X = re.compile(r"""(?im)^[^#\n]*\btorch\b\s*(?:\[[^\]]*\])?\s*(?:[>=~!]=?\s*[\d.*]+\s*,\s*)?(?:==\s*1\.|~=\s*1\.|<=\s*1\.|<\s*2(?:\.0)?\b)""")
_pin_cache: dict[str, bool] = {}


def pins_torch_1x(path: str | None) -> bool:
    """Whether the project around `path` pins torch below 2.0 (requirements, pyproject,
    setup.py/cfg, conda environment), found by walking up from the file to a project root.
    Behaviour that changed in 2.0 depends on it: `zero_grad()` zeroes `.grad` in place before
    2.0 and sets it to None since. Only text is read; nothing of the project runs."""
    if not path or path == "-":
        return False
    d = os.path.dirname(os.path.abspath(path))
    seen = []
    found = False
    for _ in range(8):
        if d in _pin_cache:
            found = _pin_cache[d]
            break
        seen.append(d)
        hit = False
        for name in _PIN_FILES:
            f = os.path.join(d, name)
            try:
                if os.path.isfile(f) and os.path.getsize(f) < 1_000_000:
                    with open(f, encoding="utf-8", errors="replace") as fh:
                        if _TORCH_PIN_1X.search(fh.read()):
                            hit = True
                            break
            except OSError:
                continue
        if hit or any(os.path.exists(os.path.join(d, m)) for m in (".git", "pyproject.toml", "setup.py")):
            found = hit
            break
        parent = os.path.dirname(d)
        if parent == d:
            break
        d = parent
    for x in seen:
        _pin_cache[x] = found
    return found


def torch_dtype(q: str | None) -> str | None:
    return _TORCH_DTYPES.get(q or "")


# ------------------------------------------------------------------------------- calls
def _grad_mode(mode: str):
    def handler(it: Interp, ev: "CallEvent", st: "State", allv: list[Val]) -> Val:
        return Val(kind=K.CTX, attrs={F.GRAD_CTX: mode})

    return handler


def _inference_mode(it: Interp, ev: "CallEvent", st: "State", allv: list[Val]) -> Val:
    mode = ev.arg(0, "mode")
    c = mode.get(F.CONST, NOCONST) if mode is not None else True
    return Val(kind=K.CTX, attrs={F.GRAD_CTX: "on" if c is False else "inference"})


def _set_grad_enabled(it: Interp, ev: "CallEvent", st: "State", allv: list[Val]) -> Val:
    a = ev.arg(0, "mode")
    c = a.get(F.CONST, NOCONST) if a is not None else NOCONST
    if c is True:
        return Val(kind=K.CTX, attrs={F.GRAD_CTX: "enable"})
    if c is False:
        return Val(kind=K.CTX, attrs={F.GRAD_CTX: "off"})
    return Val(kind=K.CTX)


def _autocast(it: Interp, ev: "CallEvent", st: "State", allv: list[Val]) -> Val:
    return Val(kind=K.CTX, attrs={F.AUTOCAST: ev})


def _device(it: Interp, ev: "CallEvent", st: "State", allv: list[Val]) -> Val:
    """`torch.device("cuda")`, `torch.device("cuda:0")`, `torch.device("cuda", 0)`: the device
    type, when the argument is a literal (what autocast's default dtype depends on)."""
    c = ev.args[0].get(F.CONST) if ev.args else None
    if isinstance(c, str) and c:
        return Val(attrs={F.DEVICE: c.split(":", 1)[0]})
    return EMPTY


def _set_default_dtype(it: Interp, ev: "CallEvent", st: "State", allv: list[Val]) -> Val | None:
    args = ev.args
    if not args:
        return None
    c = args[0].get(F.QUAL)
    if c in ("torch.float64", "torch.double"):
        it.default_dtype = "float64"
    elif c in ("torch.float32", "torch.float"):
        it.default_dtype = "float32"
    return EMPTY


def autograd_grad(it: Interp, ev: "CallEvent", st: "State", allv: list[Val]) -> Val:
    outputs = ev.arg(0, "outputs") or EMPTY
    inputs = ev.arg(1, "inputs") or EMPTY
    create = truthy(ev.arg(None, "create_graph"))
    retain = truthy(ev.arg(None, "retain_graph"))
    if retain is False and ev.arg(None, "retain_graph") is None:
        retain = create  # retain_graph defaults to create_graph
    it.differentiate(ev, st, DiffKind.AUTOGRAD_GRAD, outputs, ev.arg_node(0, "outputs"), sources=inputs,
                     source_node=ev.arg_node(1, "inputs"), retain=retain, create_graph=create)
    elem_attrs = {F.FW: "torch", F.GRAD_RESULT: ev.node, F.CREATED_BY_GRAD: True}
    if create is not False:
        # True, or a value the analysis cannot read (`create_graph=second_order`): unknown is
        # not "absent", so the gradients are not known to be constants
        out = combine([outputs, inputs])
        g = (ev.node, st.ctx.key)
        val = Val(out.live, out.cuts, out.notes, out.graphs | {g}, K.TENSOR, elem_attrs)
    else:
        c = Cut("no_create_graph", ev.node, hard=True)
        origins = outputs.live | inputs.live
        in_origins = inputs.live | frozenset(o for item in (inputs.get(F.ITEMS) or ()) for o in item.live)
        # the note follows the gradients as values (it is dropped by .detach(), .sign(),
        # comparisons: a gradient used as data on purpose, as in FGSM)
        note = Note("no_create_graph", ev.node, data=in_origins)
        val = Val(_E, frozenset((o, c) for o in origins), frozenset({note}), _E, K.TENSOR, elem_attrs)
    return Val(val.live, val.cuts, val.notes, val.graphs, K.GRAD, {F.ELEM: val, F.GRAD_RESULT: ev.node})


# torch.autograd.functional's derivatives: all take `create_graph=False` (at this position) and,
# without it, return results detached from the inputs (`_grad_postprocess`), like
# autograd.grad's; jacobian/hessian return the derivative, the others (output, derivative)
TORCH_FUNCTIONAL_DERIVATIVES = {
    "torch.autograd.functional.jacobian": (2, False), "torch.autograd.functional.hessian": (2, False),
    "torch.autograd.functional.vjp": (3, True), "torch.autograd.functional.jvp": (3, True),
    "torch.autograd.functional.hvp": (3, True), "torch.autograd.functional.vhp": (3, True),
}


def _run_on_fresh_leaves(it: Interp, ev: "CallEvent", st: "State") -> None:
    """`jacobian(func, inputs)` calls `func` on copies of `inputs` made leaves that require grad
    (`_grad_preprocess`): `func` is interpreted on such leaves, so that what it does to them
    (a store into a buffer an operation saved a view of) is judged as in a training step."""
    fn = ev.arg(0, "func")
    if fn is None or fn.kind != K.FUNCTION or fn.get(F.FN) is None:
        return
    inputs = ev.arg(1, "inputs") or EMPTY
    items = inputs.get(F.ITEMS) if inputs.kind == K.TUPLE else None
    args = []
    for v in items or (inputs,):
        leaf = Val(kind=K.TENSOR, attrs={F.FW: "torch", F.LEAF: True, F.DTYPE: v.get(F.DTYPE)})
        args.append(it.make_requires_grad(leaf, ev.node, None))
    fake = CallEvent(ev.node, st.ctx, None, None, None, fn, [], {}, [], {})
    it.call_function(fn.get(F.FN), fake, st.fork(), args, {}, self_val=None)


def _functional_derivative(it: Interp, ev: "CallEvent", st: "State", allv: list[Val]) -> Val | None:
    _run_on_fresh_leaves(it, ev, st)
    pos, pair = TORCH_FUNCTIONAL_DERIVATIVES[ev.qual]
    create = truthy(ev.arg(pos, "create_graph"))
    if create is not False:
        return None  # with a graph (or unknown): the generic differentiable result
    inputs = ev.arg(1, "inputs") or EMPTY
    in_origins = inputs.live | frozenset(o for item in (inputs.get(F.ITEMS) or ()) for o in item.live)
    c = Cut("no_create_graph", ev.node, hard=True)
    note = Note("no_create_graph", ev.node, data=in_origins)
    val = Val(_E, frozenset((o, c) for o in in_origins), frozenset({note}), _E, K.TENSOR,
              {F.FW: "torch", F.GRAD_RESULT: ev.node, F.CREATED_BY_GRAD: True})
    return Val(kind=K.TUPLE, attrs={F.ITEMS: (val, val)}) if pair else val


def _autograd_backward(it: Interp, ev: "CallEvent", st: "State", allv: list[Val]) -> Val:
    # torch.autograd.backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, ...)
    target = ev.arg(0, "tensors") or EMPTY
    create = truthy(ev.arg(3, "create_graph"))
    retain = truthy(ev.arg(2, "retain_graph"))
    it.differentiate(ev, st, DiffKind.BACKWARD, target, ev.arg_node(0, "tensors"),
                     retain=create if ev.arg(2, "retain_graph") is None else retain, create_graph=create)
    return Val(kind=K.NONE)


def _loaded_script_module(it: Interp, ev: "CallEvent", st: "State", allv: list[Val]) -> Val:
    """`torch.jit.load(f)`: a module whose parameters require grad as whoever saved it decided
    (a frozen feature extractor for a perceptual loss, often): a module, but not certainly a
    trained one, and nothing of the file object it was read from."""
    o = Origin(K.ORIGIN_MODULE, "", ev.node, certain=False, framework="torch")
    return Val(frozenset({o}), kind=K.MODULE, attrs={F.FW: "torch"})


def _parameter(it: Interp, ev: "CallEvent", st: "State", allv: list[Val]) -> Val:
    data = ev.arg(0, "data") or EMPTY
    o = Origin(K.ORIGIN_TENSOR, "", ev.node, certain=True)
    return Val(frozenset({o}), kind=K.TENSOR, attrs={
        F.FW: "torch", F.LEAF: True, F.PARAM: True, F.FRESH_ORIGIN: True, F.DTYPE: data.get(F.DTYPE) or it.default_dtype,
        F.SHAPE: data.get(F.SHAPE), F.CREATED: ev.node,
    })


def torch_factory(it: Interp, ev: "CallEvent", st: "State", allv: list[Val]) -> Val:
    q = ev.qual
    if q == "torch.as_tensor" and ev.args and ev.args[0].kind in (K.TENSOR, K.GRAD):
        # a tensor given to as_tensor is returned as it is (no copy, the same graph); a
        # dtype/device change is an ordinary differentiable cast
        dq = ev.kwargs["dtype"].get(F.QUAL) if "dtype" in ev.kwargs else None
        return ev.args[0].with_fact(F.DTYPE, torch_dtype(dq)) if dq else ev.args[0]
    node = ev.node
    args = ev.args
    kwargs = ev.kwargs
    attrs: dict = {F.FW: "torch", F.LEAF: True, F.CREATED: node}
    dtype = kwargs.get("dtype")
    dq = dtype.get(F.QUAL) if dtype is not None else None
    if dq:
        attrs[F.DTYPE] = torch_dtype(dq)
    elif dtype is not None and dtype.get(F.CONST, 0) is not None:
        attrs[F.DTYPE] = None  # `dtype=dtype` of a value not known here: not the default either
    elif q in DEFAULT_INT_FACTORIES:
        attrs[F.DTYPE] = "int"
    elif q in TORCH_SHAPE_ONLY and args:
        attrs[F.DTYPE] = args[0].get(F.DTYPE)
    elif q in ("torch.tensor", "torch.as_tensor") and args:
        attrs[F.DTYPE] = literal_dtype(ev.arg_nodes[0], args[0], it.default_dtype)
    elif q in ("torch.arange",) and all(isinstance(a.get(F.CONST), int) for a in args):
        attrs[F.DTYPE] = "int"
    elif q in _TYPED_CONSTRUCTOR_DTYPES:
        attrs[F.DTYPE] = _TYPED_CONSTRUCTOR_DTYPES[q]
    elif q == "torch.from_numpy":
        attrs[F.DTYPE] = None
    else:
        attrs[F.DTYPE] = it.default_dtype
    shape = _shape_from_args(q, ev)
    if shape is not None:
        attrs[F.SHAPE] = shape
        n = 1
        for d in shape:
            n *= d
        attrs[F.NUMEL] = n
        if n != 1:
            attrs[F.SCALAR] = False
        elif not shape:
            attrs[F.SCALAR] = True
        # one element with dimensions (`torch.zeros(1)`, yolov5's loss accumulators): not 0-dim,
        # but backward() needs only numel() == 1, and nothing keeps a batch dimension: unknown
    if q in ("torch.tensor", "torch.scalar_tensor") and args and args[0].kind == K.NUMBER:
        attrs[F.SCALAR] = True
    if st.ctx.grad == "inference":
        attrs[F.INFERENCE] = st.ctx.grad_node or node
    exact = factory_exact(q.rsplit(".", 1)[-1], ev.arg_nodes, ev.kw_nodes, node)
    if exact is not None:
        attrs[F.EXACT] = exact
    rg = kwargs.get("requires_grad")
    base = EMPTY
    if q in TORCH_VALUE_COPIES and args:
        data = args[0]
        if data.live:
            base = cut(data, Cut("tensor_ctor", node, hard=True))
        else:
            base = Val(_E, data.cuts, data.notes)
    if rg is not None and rg.get(F.CONST) is True:
        o = Origin(K.ORIGIN_TENSOR, "", node, certain=True)
        attrs[F.RG] = True
        attrs[F.FRESH_ORIGIN] = True
        return Val(frozenset({o}), base.cuts, base.notes, _E, K.TENSOR, attrs)
    return Val(_E, base.cuts, base.notes, _E, K.TENSOR, attrs)


def _shape_from_args(q: str, ev: "CallEvent") -> tuple | None:
    nodes = ev.arg_nodes
    if q in _LEGACY_CONSTRUCTORS:
        # `torch.LongTensor(32, 256, 256)` is a size; `torch.FloatTensor([1, 2])` is data
        if not nodes or ev.kw_nodes or not all(isinstance(literal(n), int) and not isinstance(literal(n), bool) for n in nodes):
            return None
    elif q not in _SHAPED_FACTORIES:
        return None
    if q == "torch.full":
        nodes = nodes[:1]
        if nodes and isinstance(nodes[0], (cst.Tuple, cst.List)):
            nodes = [e.value for e in nodes[0].elements]
    elif q == "torch.randint":
        size = ev.kw_nodes.get("size")
        if size is None and nodes:
            size = nodes[-1]
        nodes = [e.value for e in size.elements] if isinstance(size, (cst.Tuple, cst.List)) else []
    elif len(nodes) == 1 and isinstance(nodes[0], (cst.Tuple, cst.List)):
        nodes = [e.value for e in nodes[0].elements]
    elif "size" in ev.kw_nodes and isinstance(ev.kw_nodes["size"], (cst.Tuple, cst.List)):
        nodes = [e.value for e in ev.kw_nodes["size"].elements]
    dims = []
    for n in nodes:
        c = literal(n)
        if isinstance(c, int) and not isinstance(c, bool):
            dims.append(c)
        elif isinstance(n, cst.BinaryOperation):
            left, right = literal(n.left), literal(n.right)
            v = fold(OPS.get(type(n.operator), "?"), left, right)
            if isinstance(v, int):
                dims.append(v)
            else:
                return None
        else:
            return None
    return tuple(dims) if nodes else None


def _clip(it: Interp, ev: "CallEvent", st: "State", allv: list[Val]) -> Val:
    it.opt_event(ev.node, st, "clip", ev.args[0] if ev.args else EMPTY)
    return Val(kind=K.TENSOR, attrs={F.FW: "torch"})


def _grad_scaler(it: Interp, ev: "CallEvent", st: "State", allv: list[Val]) -> Val:
    return Val(kind=K.SCALER, attrs={F.QUAL: ev.qual, F.CREATED: ev.node})


def _detach_fn(it: Interp, ev: "CallEvent", st: "State", allv: list[Val]) -> Val | None:
    if not ev.args:
        return None
    x = ev.args[0]
    return cut(x, Cut("detach", ev.node, hard=False), kind=K.TENSOR, attrs=propagate(x.attrs, Op.DETACH_FN))


def _stack(it: Interp, ev: "CallEvent", st: "State", allv: list[Val]) -> Val:
    seq = ev.args[0] if ev.args else EMPTY
    elem = it.iter_val(seq)
    vals = [seq, elem] + list(ev.kwargs.values())
    attrs: dict = {F.FW: "torch"}
    dt = elem.get(F.DTYPE)
    if dt:
        attrs[F.DTYPE] = dt
    items = seq.get(F.ITEMS)
    if items is None and isinstance(seq.get(F.KEYS), dict):
        items = tuple(seq.attrs[F.KEYS].values())  # `torch.stack(list(losses.values()))`
    if items and (len(items) > 1 and ev.qual == "torch.stack" or any(v.get(F.SCALAR) is False for v in items)):
        attrs[F.SCALAR] = False  # two or more values stacked, or a non-scalar among those joined: not a scalar
    return it.op_result(ev.node, st, vals, kind=K.TENSOR, attrs=attrs, saves=False)


def _no_grad_decorator(mode: str):
    def handler(it: Interp, fn: "FunctionInfo", qual: str, dec, call_args, st: "State") -> None:
        fn.grad, fn.grad_node = mode, dec

    return handler


# ------------------------------------------------------------------------------- methods
def _parameters(it: Interp, ev: "CallEvent", st: "State", recv: Val, recv_name) -> Val:
    # a generator: the first loop over it (an optimizer's constructor) exhausts it
    return Val(recv.live, kind=K.PARAMS, attrs={F.FW: recv.get(F.FW), F.ONE_SHOT: ev.node})


def _named_parameters(it: Interp, ev: "CallEvent", st: "State", recv: Val, recv_name) -> Val:
    p = Val(recv.live, kind=K.TENSOR, attrs={F.LEAF: True, F.PARAM: True, F.FW: recv.get(F.FW) or "torch"})
    item = Val(recv.live, kind=K.TUPLE, attrs={F.ITEMS: (Val(kind=K.STR), p)})
    return Val(recv.live, kind=K.LIST, attrs={F.ELEM: item, F.FW: recv.get(F.FW), F.ONE_SHOT: ev.node})


def _submodules(it: Interp, ev: "CallEvent", st: "State", recv: Val, recv_name) -> Val:
    """`model.modules()` / `children()` (and their `named_` forms): submodules, part of the model
    (its origin); which classes they are is not known (an `isinstance` test picks them)."""
    sub = Val(recv.live, kind=K.MODULE, attrs={F.FW: recv.get(F.FW) or "torch"})
    if ev.method in ("named_modules", "named_children"):
        sub = Val(recv.live, kind=K.TUPLE, attrs={F.ITEMS: (Val(kind=K.STR), sub)})
    return Val(recv.live, kind=K.LIST, attrs={F.ELEM: sub, F.FW: recv.get(F.FW)})


def _module_apply(it: Interp, ev: "CallEvent", st: "State", recv: Val, recv_name) -> Val:
    """`model.apply(init_fn)` calls init_fn on every submodule (the model included) and returns
    the model: a function of the file is run on a submodule, part of the model."""
    fn = ev.arg(0, "fn")
    if fn is not None and fn.kind in (K.FUNCTION, K.BOUND) and fn.get(F.FN) is not None:
        sub = Val(recv.live, kind=K.MODULE, attrs={F.FW: recv.get(F.FW) or "torch"})
        call = CallEvent(ev.node, st.ctx, None, None, None, fn, [sub], {}, [], {})
        it.call_function(fn.attrs[F.FN], call, st, [sub], {}, self_val=fn.get(F.SELF) if fn.kind == K.BOUND else None)
    return recv


def _module_zero_grad(it: Interp, ev: "CallEvent", st: "State", recv: Val, recv_name) -> Val:
    it.opt_event(ev.node, st, "zero_grad", recv)
    return EMPTY


def _module_requires_grad_(it: Interp, ev: "CallEvent", st: "State", recv: Val, recv_name) -> Val:
    flag = ev.arg(0, "requires_grad")
    freeze(recv, flag is not None and flag.get(F.CONST) is False)
    return recv


def _register_attribute(it: Interp, ev: "CallEvent", st: "State", recv: Val, recv_name) -> Val:
    """`self.register_buffer("mean", t)` / `register_parameter("w", p)` / `add_module("head", m)`:
    `self.mean` is now `t` (what later code reads through the attribute)."""
    name, value = ev.arg(0, "name"), ev.arg(1, "tensor" if ev.method == "register_buffer" else "param" if ev.method == "register_parameter" else "module")
    if recv_name is not None and name is not None and isinstance(name.get(F.CONST), str) and value is not None and value.kind is not None:
        st.env[f"{recv_name}.{name.attrs[F.CONST]}"] = value
    return EMPTY


def _module_forward(it: Interp, ev: "CallEvent", st: "State", recv: Val, recv_name) -> Val:
    return it.call_module(recv, ev, st)


def _scaler_method(it: Interp, ev: "CallEvent", st: "State", recv: Val, recv_name) -> Val:
    m = ev.method
    args = ev.args
    if m == "scale" and args:
        return args[0].with_fact(F.SCALED, recv.get(F.CREATED))
    if m == "step" and args:
        it.opt_event(ev.node, st, "step", args[0])
    elif m == "unscale_" and args:
        it.opt_event(ev.node, st, "unscale", args[0])
    return EMPTY


def _apply_autograd_function(it: Interp, func: Val, ev: "CallEvent", st: "State") -> Val:
    """`MyFunction.apply(x)`: a differentiable operation on its arguments; when its forward
    saves the tensor it returns (`out = torch.exp(x); ctx.save_for_backward(out); return out`),
    an in-place change of the result breaks its backward (SAVED_OUTPUT, as for sigmoid)."""
    attrs: dict = {F.FW: "torch"}
    if st.ctx.grad == "on" and function_saves(func.get(F.CLS)).output:
        attrs[F.SAVED_OUTPUT] = ev.node
    return it.op_result(ev.node, st, ev.args + list(ev.kwargs.values()), kind=K.TENSOR, attrs=attrs)


class FunctionSaves(NamedTuple):
    """What a custom autograd.Function's static forward hands to `ctx.save_for_backward`."""

    inputs: dict  # position (among the arguments of `apply`) of an input saved unchanged -> the name saved
    output: bool  # it returns one name, which it saves (the result is SAVED_OUTPUT, as sigmoid's)


_NO_SAVES = FunctionSaves({}, False)


def function_saves(info) -> FunctionSaves:
    """One scan of the Function's forward, kept on its ClassInfo. An input saved unchanged (not
    rebound first) breaks the backward when it is changed in place afterwards, as for a built-in
    op that saves its input; so does the returned tensor when the forward saves it."""
    if info is None:
        return _NO_SAVES
    if info.saves is None:
        info.saves = _scan_saves(info)
    return info.saves


def _scan_saves(info) -> FunctionSaves:
    fwd = info.find_method("forward")
    if fwd is None or not fwd.is_static or not isinstance(fwd.node, cst.FunctionDef):
        return _NO_SAVES
    params = [p.name.value for p in list(fwd.node.params.params)[1:]]
    rebound: set[str] = set()
    inputs: dict[int, cst.Name] = {}
    saved: set[str] = set()
    returned: set[str] = set()
    returns_other = False
    for n in walk(fwd.node.body, code_only=True):
        if isinstance(n, cst.Assign):
            for t in n.targets:
                rebound.update(x.value for x in walk(t.target, code_only=True) if isinstance(x, cst.Name))
        elif isinstance(n, cst.Return):
            if isinstance(n.value, cst.Name):
                returned.add(n.value.value)
            else:
                returns_other = True
        elif isinstance(n, cst.Call) and isinstance(n.func, cst.Attribute) and n.func.attr.value == "save_for_backward":
            for a in n.args:
                if isinstance(a.value, cst.Name):
                    saved.add(a.value.value)
                    if a.value.value in params and a.value.value not in rebound:
                        inputs.setdefault(params.index(a.value.value), a.value)
    return FunctionSaves(inputs, not returns_other and len(returned) == 1 and returned <= saved)


TORCH_VARIABLE = frozenset({"torch.autograd.Variable", "torch.autograd.variable.Variable"})


def _variable(it: Interp, ev: "CallEvent", st: "State", allv: list[Val]) -> Val:
    """The legacy `Variable(t, requires_grad=...)` wrapper (PyTorch < 0.4): today it returns
    `t`'s values as a new leaf (grad_fn None even for a computed `t`), made to require grad when
    asked, as `t.detach().requires_grad_()`."""
    data = ev.arg(0, "data") or EMPTY
    rg = ev.arg(None, "requires_grad")
    if rg is not None and rg.get(F.CONST) is True:
        name = dotted_name(ev.arg_node(0, "data")) if ev.arg_node(0, "data") is not None else None
        # a new leaf: no graph of t's is walked through it (requires_grad_() on t itself keeps one)
        return it.make_requires_grad(data.with_(graphs=frozenset()) if data.graphs else data, ev.node, name)
    return data


# Activations and dropout that overwrite their input when asked: the position of `inplace` in
# the functional form (after the input) and in the module's constructor; and the functions
# that always do (`torch.relu_`).
INPLACE_FUNCTIONAL = {
    "relu": 1, "relu6": 1, "selu": 1, "silu": 1, "hardswish": 1, "hardsigmoid": 1, "mish": 1,
    "leaky_relu": 2, "elu": 2, "celu": 2, "hardtanh": 3, "threshold": 3, "rrelu": 4,
    "dropout": 3, "dropout1d": 3, "dropout2d": 3, "dropout3d": 3, "alpha_dropout": 3, "feature_alpha_dropout": 3,
}
INPLACE_ALWAYS = frozenset({
    "torch.relu_", "torch.nn.functional.relu_", "torch.nn.functional.elu_", "torch.nn.functional.leaky_relu_",
    "torch.nn.functional.hardtanh_", "torch.nn.functional.threshold_", "torch.nn.functional.rrelu_",
    "torch.sigmoid_", "torch.tanh_", "torch.exp_",
})
INPLACE_MODULES = {
    "ReLU": 0, "ReLU6": 0, "SELU": 0, "SiLU": 0, "Hardswish": 0, "Hardsigmoid": 0, "Mish": 0,
    "LeakyReLU": 1, "ELU": 1, "CELU": 1, "Dropout": 1, "Dropout1d": 1, "Dropout2d": 1, "Dropout3d": 1,
    "AlphaDropout": 1, "FeatureAlphaDropout": 1, "Hardtanh": 2, "Threshold": 2, "RReLU": 2,
}


def saves_output(layer: Val) -> bool:
    """A library layer whose backward keeps its output (`nn.ReLU()`, `nn.Sigmoid()`)."""
    return layer.get(F.QUAL_NEW, "").rsplit(".", 1)[-1] in SAVES_OUTPUT_MODULES


def overwrites_input(ev: "CallEvent") -> bool:
    """Whether the call changes its first argument in place: `F.relu(x, inplace=True)`,
    `torch.relu_(x)`, or a module built with `inplace=True` (`nn.ReLU(True)`) applied to it."""
    q = ev.qual
    if q is not None:
        if q in INPLACE_ALWAYS:
            return True
        if q.startswith("torch.nn.functional."):
            pos = INPLACE_FUNCTIONAL.get(q.rsplit(".", 1)[-1])
            flag = ev.arg(pos, "inplace") if pos is not None else None
            return flag is not None and flag.get(F.CONST) is True
        return False
    return bool(ev.func.get(F.INPLACE_MODULE)) and ev.func.kind == K.MODULE


# a name bound to a weight or bias (or a view of one), then written through within 20 lines (the
# regex continues with how); not every `w = self.fc.weight` (weight tying, logging: a tenth of
# the corpus' model files)
_BOUND_TO_PARAM = (
    r"^[ \t]*(\w+)[ \t]*=[ \t]*[\w.]+\.(?:weight|bias)(?:\.(?:view|reshape|t|transpose|unsqueeze|squeeze)\([^)\n]*\))?"
    r"[ \t]*(?:#[^\n]*)?\n(?:[^\n]*\n){0,20}?[ \t]*\1"
)
_PARAM_INPLACE = re.compile(
    r"\.(?:weight|bias)(?:\[[^\]\n]*\])+[ \t]*[-+*/]?=(?!=)"
    r"|\.(?:weight|bias)[ \t]*[-+*/]="
    r"|" + _BOUND_TO_PARAM + r"(?:\[[^\]\n]*\])+[ \t]*[-+*/]?=(?!=)",
    re.M,
)
# ... the same with an in-place method of the tensor's data (`.copy_(`, `.masked_fill_(`, not the
# flag setters) in a file that never turns autograd off: library code spells its initialisation
# `with torch.no_grad(): self.bias.fill_(0)`, and the text cannot see that scope
_INPLACE_METHOD = r"(?:\[[^\]\n]*\])*\.(?!requires_grad_|detach_|share_memory_|retain_grad)[a-z]\w*_\("
_PARAM_INPLACE_METHOD = re.compile(
    r"\A(?!(?s:.*)no_grad\()(?s:.*?)(?:\.(?:weight|bias)" + _INPLACE_METHOD + "|" + _BOUND_TO_PARAM + _INPLACE_METHOD + ")",
    re.M,
)


_LEAF_INPLACE = re.compile(
    r"^[ \t]*(\w+)[ \t]*=[^\n]*\brequires_grad(?:_\([ \t]*(?:True)?[ \t]*\)|[ \t]*=[ \t]*True)[^\n]*\n(?:[^\n]*\n){0,20}?"
    r"(?:[ \t]*\1(?:(?:\[[^\]\n]*\])+[ \t]*[-+*/]?=(?!=)|[ \t]*[-+*/]=|\.[a-z]\w*_\()"
    # ... or given to a call with `out=` (`torch.add(c, 1, out=c)`, GL311)
    r"|[^\n]*\b\1\b[^\n]*,[ \t]*out[ \t]*=(?!=))"
    # ... or a tensor written into (`E[:, 0::2] = ...`) and only afterwards frozen
    # (`E.requires_grad = False` within 10 lines): the write happened while it required grad
    r"|^[ \t]*(\w+)(?:\[[^\]\n]*\])+[ \t]*[-+*/]?=(?!=)[^\n]*\n(?:[^\n]*\n){0,10}?[ \t]*\2\.requires_grad[ \t]*=[ \t]*False",
    re.M,
)


_DISCARDED_UPDATE = re.compile(
    r"^[ \t]*[\w.]+(?:\[[^\]\n]*\])*\.(?:masked_fill|index_fill|index_add|index_copy|scatter_add|scatter|clamp_min|clamp_max"
    r"|clamp|renorm|lerp|fill_diagonal)\((?:[^()\n]|\([^()\n]*\))*\)[ \t]*(?:#[^\n]*)?$",
    re.M,
)


def _not_exporting(it: Interp, ev: "CallEvent", st: "State", allv: list[Val]) -> Val:
    """`torch.jit.is_tracing()` and the like: False, as in the training step the analysis is
    about (what runs only while exporting is never differentiated)."""
    return Val(kind=K.NUMBER, attrs={F.CONST: False})


_CLASS_LOSSES = r"\b(?:nll_loss|cross_entropy|NLLLoss|CrossEntropyLoss)\b"


_SQRT_FLOORED = re.compile(  # (anchored at line starts: scanning every `name =` in a file cost 0.4 s on the 22 repositories)
    r"^[ \t]*(\w+)[ \t]*=[ \t]*[\w.]*\bsqrt\((?s:.{0,400}?)\b(?:maximum|clamp|clamp_min|clip|clip_by_value)\(\s*\1\b"
    r"|\b(?:maximum|clamp|clip|clip_by_value)\(\s*[\w.]*\bsqrt\(|\bsqrt\((?:[^()\n]|\([^()\n]*\))*\)\.clamp(?:_min)?\(",
    re.M)


def _half_and(half: str) -> re.Pattern:
    """A file that both spells float16 (`half`) and uses a class-index loss, in either order."""
    return re.compile(rf"{half}(?s:.*?){_CLASS_LOSSES}|{_CLASS_LOSSES}(?s:.*?){half}")


class Torch(Framework):
    name = "torch"
    tag = "torch"
    heads = ("torch",)
    evidence = Evidence(
        words=("grad", "backward", "Optimizer", "optim.", "checkpoint", "nn.", "weight", "bias", "half", "float16", "sqrt"),
        literals=(".backward(", "autograd.grad", "autograd.backward", "gradcheck", "Optimizer)"),
        # constructing a torch.optim optimizer is training code even where the backward is
        # elsewhere (a builder, a model file with its optimizer): what it is given to update
        # is what the training-setup rules (GL7) check
        # turning activation checkpointing on is a training decision (GL707 checks what it is
        # given). Not every checkpoint call: library model code wraps its layers in one for
        # whoever trains it (473 of the 2.4 M-line corpus' files, 10x the analysis time)
        patterns=(("optim.", re.compile(r"\boptim\.[A-Z]\w*\(")),
                  ("checkpoint", re.compile(r"\bgradient_checkpointing_enable\s*\(|\bcheckpoint(?:_sequential)?\s*\((?:[^()]|\([^()]*\))*\buse_reentrant\s*=\s*True"
                                            # a Hugging Face training config asking for it
                                            r"""|\bgradient_checkpointing_kwargs\s*=\s*(?:dict\s*\(|\{)[^(){}]*\buse_reentrant['"]?\s*[:=]\s*True""")),
                  # a layer built and called in one expression (`nn.Linear(d, h)(x)`, in a
                  # forward): its weights are new on every call, whatever trains the module (GL702)
                  ("nn.", re.compile(r"\bnn\.[A-Z]\w*\((?:[^()\n]|\([^()\n]*\))*\)\(")),
                  # layers (or parameters) put in a plain list or dict attribute of a module
                  # (`self.blocks = [nn.Linear(8, 8) for _ in range(n)]`): never registered, so no
                  # optimizer trains them, whatever file trains the model (GL701; a model file
                  # often has no other evidence)
                  ("nn.", re.compile(r"\bself\.\w+\s*=\s*[\[{][^\n]*\bnn\.[A-Z]\w*\(")),
                  # ... or blocks of the file's own classes (`self.mlps = [ResMLP(d) for _ in
                  # range(10)]` in a file that uses torch.nn): the rule checks the class is a module
                  ("nn.", re.compile(r"\bself\.\w+\s*=\s*\[\s*[A-Z]\w*\(")),
                  # an out-of-place tensor update written as a statement (`attn.masked_fill(mask,
                  # 0.)`): its result is thrown away, in a model file too (GL508; methods that
                  # only tensors have)
                  ("nn.", _DISCARDED_UPDATE),
                  # a module's weight or bias changed in place (`conv.weight[:, 0] = 0`,
                  # `b = conv.bias.view(3, -1)` then `b[:, 4] += p`): with autograd on this raises at
                  # once, no backward needed (GL308), typically in initialisation code
                  ("weight", _PARAM_INPLACE), ("bias", _PARAM_INPLACE),
                  ("weight", _PARAM_INPLACE_METHOD), ("bias", _PARAM_INPLACE_METHOD),
                  # ... or a tensor made to require grad (`c = torch.randn(..., requires_grad=True)`)
                  # written through within 20 lines (`c.index_copy_(...)`, `c[0] = 1`, a call given
                  # it and `out=`): it raises at once too
                  ("grad", _LEAF_INPLACE),
                  # ... or an integer tensor made to require grad (`torch.arange(5, requires_grad=True)`,
                  # `torch.tensor([1, 2], requires_grad=True)`): it raises at once (GL312)
                  ("grad", re.compile(r"\btorch\.(?:arange|randint|tensor)\((?:[^()\n]|\([^()\n]*\))*\brequires_grad\s*=\s*True")),
                  # a class-index loss in a file that computes in float16 (`nn.NLLLoss().half()`,
                  # `F.cross_entropy(out, y)` of a `.half()` model): its mean overflows on a large
                  # batch, no backward needed to see it (GL414)
                  ("half", _half_and(r"\.half\(\)")), ("float16", _half_and(r"\bfloat16\b")),
                  # a square root floored after the fact (`d = K.sqrt(s)` ... `K.maximum(d, eps)`,
                  # `torch.sqrt(s).clamp(min=eps)`): the floor says s can be 0, where the gradient
                  # is NaN, in a layer's code too (GL408)
                  ("sqrt", _SQRT_FLOORED),
                  # the code checks that a value carries a graph (`print(loss.grad_fn)`,
                  # `assert out.requires_grad`): it expects it to be differentiable (InspectEvent)
                  ("grad", _INSPECTS_GRAPH),
                  # a custom autograd.Function is autograd code whoever calls it (GL511 checks
                  # what its backward returns, GL104 what it recomputes)
                  ("backward", re.compile(r"\bdef\s+backward\s*\(\s*ctx\b"))),
    )
    members = {
        **table(TORCH_NO_GRAD, _grad_mode("off")),
        **table(TORCH_ENABLE_GRAD, _grad_mode("enable")),
        **table(TORCH_INFERENCE, _inference_mode),
        **table(TORCH_SET_GRAD, _set_grad_enabled),
        **table(TORCH_AUTOCAST, _autocast),
        "torch.set_default_dtype": _set_default_dtype,
        "torch.device": _device,
        **table(TORCH_AUTOGRAD_GRAD, autograd_grad),
        **table(TORCH_FUNCTIONAL_DERIVATIVES, _functional_derivative),
        **table(TORCH_AUTOGRAD_BACKWARD, _autograd_backward),
        **table(TORCH_PARAMETER, _parameter),
        **table(TORCH_FACTORIES, torch_factory),
        **table(TORCH_CLIP, _clip),
        **table(TORCH_GRADSCALER, _grad_scaler),
        **table(TORCH_DETACH_FUNCS, _detach_fn),
        **table(_STACKS, _stack),
        **table(_NO_VALUE, returns_nothing),
        **table(TORCH_EXPORTING, _not_exporting),
        "torch.compile": returns_first_arg,
        "torch.jit.script": returns_first_arg,
        "torch.jit.load": _loaded_script_module,
        **table(TORCH_VARIABLE, _variable),
    }
    decorators = {
        **table(TORCH_NO_GRAD, _no_grad_decorator("off")),
        **table(TORCH_INFERENCE, _no_grad_decorator("inference")),
        **table(TORCH_ENABLE_GRAD, _no_grad_decorator("enable")),
    }
    module_methods = {
        "parameters": _parameters,
        "named_parameters": _named_parameters,
        "zero_grad": _module_zero_grad,
        **table(("to", "cuda", "cpu", "train", "eval", "float", "double", "half", "type", "share_memory"), method_returns_receiver),
        "apply": _module_apply,
        "requires_grad_": _module_requires_grad_,
        **table(("state_dict", "load_state_dict"), method_returns_nothing),
        **table(("named_modules", "modules", "children", "named_children"), _submodules),
        **table(("register_buffer", "register_parameter", "add_module"), _register_attribute),
        "forward": _module_forward,
        "__call__": _module_forward,
    }
    module_like_methods = frozenset(
        {"parameters", "named_parameters", "zero_grad", "train", "eval", "to", "cuda", "cpu", "state_dict", "load_state_dict", "forward",
         "apply", "modules", "children"}
    )
    module_evidence = frozenset({"parameters", "named_parameters", "train", "eval", "state_dict", "load_state_dict", "modules", "children", "named_modules"})
    optimizer_methods = {
        "zero_grad": OptimizerMethod("zero_grad"),
        "step": OptimizerMethod("step", runs_closure=True),
    }
    receiver_methods = {K.SCALER: _scaler_method}
    callable_kinds = {K.AUTOGRAD_APPLY: _apply_autograd_function}
    clip_methods = frozenset({"clip_grad_norm_", "clip_grad_value_", "clip_master_grads", "clip_grad_norm", "clip_grads_with_norm_"})
    instance_call_methods = frozenset({TRANSFORM_CALL})
    annotations = {
        "torch.nn.Module": "module", "torch.nn.modules.module.Module": "module",
        "torch.optim.Optimizer": "optimizer", "torch.optim.optimizer.Optimizer": "optimizer",
        "torch.Tensor": "tensor", "torch.FloatTensor": "tensor",
    }

    def class_roles(self, qual: str) -> frozenset[str]:
        roles = set()
        if qual in TORCH_MODULE_BASES or qual.startswith("torch.nn."):
            roles.add("module")
        if qual in AUTOGRAD_FUNCTION_BASES:
            roles.add("autograd_function")
        if qual in TRANSFORM_BASES:
            roles.add(f"call:{TRANSFORM_CALL}")  # the method a call of the instance runs
        if qual in OPTIMIZER_BASES:
            roles.add("optimizer")
        return frozenset(roles)

    def call_other(self, it: Interp, q: str, ev: "CallEvent", st: "State", allv: list[Val]) -> Val:
        node = ev.node
        args = ev.args
        kwargs = ev.kwargs
        last = q.rsplit(".", 1)[-1]
        if q.startswith(TORCH_OPTIMIZER_PREFIXES) and last[:1].isupper() and not any(p in q for p in TORCH_OPTIMIZER_NON_OPT):
            params = ev.arg(0, "params") or EMPTY
            return Val(kind=K.OPTIMIZER, attrs={F.OPT_PARAMS: param_origins(params), F.QUAL: q, F.CREATED: node})
        if q.startswith("torch.optim.lr_scheduler."):
            return Val(kind=K.INSTANCE)
        if q.startswith("torch.nn.") and last[:1].isupper() and not q.startswith("torch.nn.functional") and not q.startswith("torch.nn.utils") and not q.startswith("torch.nn.init"):
            attrs: dict = {}
            rc = reduction_of(kwargs)
            if rc is not None:
                attrs[F.REDUCTION] = rc
            if last.endswith("Loss"):
                attrs[F.LOSS_MODULE] = last
            pos = INPLACE_MODULES.get(last)
            flag = ev.arg(pos, "inplace") if pos is not None else None
            if flag is not None and flag.get(F.CONST) is True:
                attrs[F.INPLACE_MODULE] = True
            if last in SAVES_OUTPUT_MODULES or (last == "Sequential" and args and args[-1].get(F.OUTPUT_SAVED) and not args[-1].get(F.STARRED)):
                # `nn.Sequential(nn.Linear(4, 8), nn.Tanh())` returns what its last layer saved
                attrs[F.OUTPUT_SAVED] = True
            if last == "Sequential" and args and not kwargs and all(a.kind == K.MODULE and not a.get(F.STARRED) for a in args):
                attrs[F.LAYERS] = tuple(args)  # run in order when it is called
                if args[-1].get(F.ACTS_AS):
                    attrs[F.ACTS_AS] = args[-1].get(F.ACTS_AS)
            if last in MODULE_FUNCTIONAL:
                attrs[F.ACTS_AS] = MODULE_FUNCTIONAL[last]
            if last == "ModuleList" and args and it.iter_val(args[0]).get(F.OUTPUT_SAVED):
                # `nn.ModuleList(nn.Sequential(conv, nn.ReLU()) for c in chans)`: each layer does
                attrs[F.OUTPUT_SAVED] = True
            if last == "ModuleList" and args:
                layer = it.iter_val(args[0])
                lq = layer.get(F.QUAL_NEW) if layer.kind == K.MODULE else None
                if lq and lq.startswith("torch.nn.") and not layer.get(F.LOSS_MODULE):
                    # `nn.ModuleList([nn.Linear(8, 200) for _ in range(3)])`: each head is a Linear,
                    # and what it computes on a batch keeps the batch dimension
                    attrs[F.LAYER_QUAL] = lq
            return it.new_module(node, q, fw="torch", attrs=attrs)
        if last in NONDIFF_FUNCS:
            return cut(combine(allv), Cut(last, node, hard=False), kind=K.TENSOR, attrs={F.FW: "torch", F.DTYPE: "int" if last.startswith("arg") else None})
        if q in SAMPLING:
            # `torch.multinomial(probs, 1)`: drawn indices, no history (as a distribution's sample())
            return drawn(allv, node, {F.FW: "torch", F.DTYPE: "int"})
        if q in _INPLACE_CLAMPS and args and ev.arg_nodes:
            # `torch.clamp_(p, min=0.01)`: p itself is kept away from 0 from now on
            guard = guarded_after_call(last[:-1], args, kwargs, node)
            name = dotted_name(ev.arg_nodes[0])
            if guard is not None and name is not None:
                base = name[:-len(".data")] if name.endswith(".data") and args[0].get(F.DATA_OF) else name
                _guard_in_place(it, st, base, guard)
        if q.startswith("torch.distributions.") and last[:1].isupper():
            # `Categorical(probs)`, `Normal(mu, std)`: a distribution over its parameters' history
            return it.op_result(node, st, allv, kind=K.TENSOR, attrs={F.FW: "torch", F.DISTRIBUTION: q}, saves=False)
        if q == f"torch.{last}" and (last in _ALWAYS_VALUES_INDICES or last in _VALUES_INDICES and _dim_given(args[1:], kwargs)):
            # `torch.max(x, 1)`, `torch.topk(x, k)`: (values, indices)
            return values_and_indices(it.op_result(node, st, allv, kind=K.TENSOR, attrs={F.FW: "torch"}), node)
        if q.startswith("torch.utils.data."):
            return Val(kind=K.INSTANCE)
        if q.startswith("torch.testing.") or q in ("torch.allclose", "torch.equal", "torch.isclose"):
            return Val(kind=K.BOOL)
        if q.startswith("torch.onnx."):
            # `torch.onnx.export(model, x, path)` writes a file; it returns None or an
            # ONNXProgram (not the module, and nothing autograd records)
            return opaque(allv, node)
        if q not in _CALL_THEIR_MODULE:
            wrapped = [v for v in ([args[0]] if args else []) + [kwargs[k] for k in ("module", "model") if k in kwargs] if v.kind == K.MODULE]
            if wrapped:
                # torch functions that take a module return it, wrapped or transformed
                # (`parallelize_module(module=m, ...)`, `fully_shard(m)`, `torch.jit.trace(m, x)`)
                return Val(frozenset().union(*(m.live for m in wrapped)), kind=K.MODULE,
                           attrs={F.FW: "torch", F.WRAPS: True})
        # generic differentiable torch function
        attrs = {F.FW: "torch"}
        dt = dtype_of(allv)
        if dt:
            attrs[F.DTYPE] = dt
        if last in _FULL_REDUCTIONS and "dim" not in kwargs and len(args) <= 1:
            attrs[F.SCALAR] = True
        elif any(v.get(F.SCALAR) is False for v in allv) and last not in REDUCTIONS:
            attrs[F.SCALAR] = False
        elif last in _POINTWISE and all(v.get(F.SCALAR) is True or v.kind == K.NUMBER for v in allv) and any(v.get(F.SCALAR) for v in allv):
            attrs[F.SCALAR] = True  # pointwise on 0-dim tensors and numbers: 0-dim
        if is_loss_function(q):
            rc = reduction_of(kwargs) or "mean"
            attrs[F.SCALAR] = rc != "none"
            attrs[F.LOSS_OF] = last
            if rc:
                attrs[F.REDUCTION] = rc
        if st.ctx.grad == "inference":
            attrs[F.INFERENCE] = st.ctx.grad_node or node
        n = numel(allv)
        if n and not attrs.get(F.SCALAR):
            attrs[F.NUMEL] = n
        elif n and attrs.get(F.LOSS_OF) and attrs.get(F.REDUCTION) in ("mean", "sum"):
            attrs[F.REDUCED_FROM] = numel(args[:1]) or n  # `F.mse_loss(pred, y)` sums or averages its input's n values
        tensor_in = any(v.kind in (K.TENSOR, K.GRAD) or v.graphs for v in allv)
        return it.op_result(node, st, allv, kind=K.TENSOR, attrs=attrs, saves=tensor_in)

    def tensor_method(self, it: Interp, ev: "CallEvent", st: "State", recv: Val, m: str, recv_name, recv_node) -> Val | None:
        node = ev.node
        args = ev.args
        kwargs = ev.kwargs
        fw = recv.get(F.FW)
        if m == "detach":
            return cut(recv, Cut("detach", node, hard=False), kind=K.TENSOR, attrs=propagate(recv.attrs, Op.DETACH))
        if m == "detach_":
            # detached in place, and returned (`x = x.detach_()` is the same tensor)
            detached = cut(recv, Cut("detach", node, hard=False), kind=K.TENSOR, attrs=recv.attrs)
            if recv_name is not None:
                st.env[recv_name] = detached
            return detached
        if m in HARD_CUT_METHODS:
            kind = K.NUMBER if m == "item" else K.NDARRAY if m == "numpy" else K.LIST
            attrs: dict = {F.FW: "np"} if m == "numpy" else {}
            if m != "item" and is_gradient(recv):
                # `g.numpy()`: the gradient's values (compared exactly: GL403); not one number
                # (`x.grad.item()` checked against a reference engine at an exact point, micrograd's test)
                attrs[F.GRAD_DERIVED] = True
            return cut(recv, Cut(HARD_CUT_METHODS[m], node, hard=True), kind=kind, attrs=attrs or None)
        if m in META_METHODS and not (m == "type" and (ev.args or ev.kwargs)):
            # (`x.type()` names the type; `x.type(torch.float32)` is a cast, below)
            return Val(kind=K.META if m != "numel" else K.NUMBER)
        if m == "requires_grad_":
            flag = ev.arg(0, "requires_grad")
            if flag is not None and flag.get(F.CONST) is False:
                if not recv.graphs:  # on a computed tensor it raises: it freezes nothing (GL310)
                    freeze(recv, True)
                return recv
            res = it.make_requires_grad(recv, node, recv_name)
            if recv_name is not None:
                st.env[recv_name] = res
            return res
        if m == "retain_grad":
            if recv_name is not None:
                st.env[recv_name] = recv.with_fact(F.RETAINS_GRAD, True)
            return Val(kind=K.NONE)
        if m == "register_hook":
            return EMPTY
        if m == "clone":
            res = it.op_result(node, st, [recv], kind=K.TENSOR, attrs=propagate(recv.attrs, Op.CLONE), saves=False)
            if st.ctx.grad == "inference":
                res = res.with_fact(F.INFERENCE, st.ctx.grad_node or node)
            return res.without_facts(F.GRAD_OF, F.LEAF)
        if m in INT_CAST_METHODS:
            return cut(recv, Cut("int_cast", node, hard=False), kind=K.TENSOR, attrs={F.FW: fw, F.DTYPE: "int" if m != "bool" else "bool"})
        if m in FLOAT_CAST_METHODS:
            res = it.op_result(node, st, [recv], kind=K.TENSOR, attrs=propagate(recv.attrs, Op.FLOAT_CAST), saves=False)
            return res.with_facts({
                F.DTYPE: FLOAT_CAST_METHODS[m], F.LEAF: False if recv.live else recv.get(F.LEAF),
                F.NONLEAF_FROM: node if recv.get(F.RG) and recv.get(F.LEAF) is not False else recv.get(F.NONLEAF_FROM),
            })
        if m in NONDIFF_FUNCS:
            return cut(recv, Cut(m, node, hard=False), kind=K.TENSOR, attrs={F.FW: fw, F.DTYPE: "int" if m.startswith("arg") else None})
        if m in ("sample", "sample_n") and recv.get(F.DISTRIBUTION):
            # drawn under no_grad: no history (an action index, a replayed action); rsample() keeps it
            return cut(recv, Cut(m, node, hard=False), kind=K.TENSOR, attrs={F.FW: "torch"})
        if m == "multinomial":
            return drawn([recv], node, {F.FW: "torch", F.DTYPE: "int"})
        if m == "new_tensor" and args:
            # `x.new_tensor(data)`: a copy of `data` (torch.tensor's), only x's dtype and device
            data = args[0]
            attrs = {F.FW: "torch", F.LEAF: True, F.CREATED: node, F.DTYPE: recv.get(F.DTYPE)}
            return cut(data, Cut("tensor_ctor", node, hard=True), kind=K.TENSOR, attrs=attrs) if data.live else Val(
                _E, data.cuts, data.notes, kind=K.TENSOR, attrs=attrs)
        if m in _MOVE_METHODS:
            attrs = propagate(recv.attrs, Op.MOVE)
            named = None
            if m == "type_as" and args:
                attrs[F.DTYPE] = named = args[0].get(F.DTYPE)
            for a in args + list(kwargs.values()):
                dq = a.get(F.QUAL)
                if dq and dq.startswith("torch.") and torch_dtype(dq):
                    attrs[F.DTYPE] = named = torch_dtype(dq)
            if named is None and (m == "type" and (args or kwargs) or m == "to" and any(
                    isinstance(n, cst.Attribute) and n.attr.value == "dtype" for n in [*ev.arg_nodes, *ev.kw_nodes.values()])):
                attrs[F.DTYPE] = None  # `.type(x.dtype)`, `.to(ref.dtype)`: a dtype not known here
            if m in ("to", "cuda", "type", "type_as") and recv.get(F.RG) and recv.get(F.LEAF):
                attrs[F.NONLEAF_FROM] = node
            if m == "cpu" and recv.get(F.LEAF) and not recv.live:
                attrs[F.LEAF] = True
            # the arguments give a device or a dtype (`.to(pred)`, `.type_as(pred)`), not values
            return it.op_result(node, st, [recv], kind=K.TENSOR, attrs=attrs, saves=False)
        if in_place_name(m) and m not in ("requires_grad_", "detach_", "zero_grad"):
            # in-place tensor op: mutate the receiver
            via_data = bool(recv.get(F.DATA_OF))
            by = it.saved_by(st, recv_name, recv)
            it.emit(InplaceEvent(node, st.ctx, recv.get(F.DATA_BASE) if via_data else recv, recv_node, m, via_data, recv_name, by))
            if m == "zero_" and recv.get(F.GRAD_OF) is not None:
                it.opt_event(node, st, "zero_grad", recv)
            guard = guarded_after_call(m[:-1], [recv] + args, kwargs, node)
            if recv_name is not None and not via_data:
                new = it.inplace_result(node, st, recv, args)
                if guard is not None:
                    new = new.with_fact(F.GUARDED, guard)
                st.env[recv_name] = new
                return new
            if guard is not None and via_data and recv_name is not None and recv_name.endswith(".data"):
                _guard_in_place(it, st, recv_name[:-len(".data")], guard)
            return recv
        if m in _REDUCING_METHODS:
            has_dim = bool(args) or "dim" in kwargs or "axis" in kwargs
            attrs = {F.FW: fw or "torch" if recv.kind == K.TENSOR or recv.live else fw}
            dt = recv.get(F.DTYPE)
            if dt:
                attrs[F.DTYPE] = dt
            if not has_dim:
                attrs[F.SCALAR] = True
                n = numel([recv])
                if n:
                    attrs[F.REDUCED_FROM] = n
            elif m in ("max", "min") and args:
                attrs[F.SCALAR] = None
            elif recv.get(F.SCALAR) is False and _keeps_batch_dim(ev):
                # `cce.sum(1)` of per-sample losses, `x.mean(-1, keepdim=True)`: the batch
                # dimension (dim 0) is not the one reduced, so the result still has it
                attrs[F.SCALAR] = False
            if is_gradient(recv):
                attrs[F.GRAD_DERIVED] = True
            if recv.get(F.TRACED):
                attrs[F.TRACED] = True
            res = it.op_result(node, st, [recv] + args, kind=K.TENSOR, attrs=attrs, saves=m not in ("sum", "mean", "nansum"))
            if m in _VALUES_INDICES and _dim_given(args, kwargs):
                return values_and_indices(res.with_(kind=K.TENSOR), node)
            return res
        if m in _ALWAYS_VALUES_INDICES:  # sort, topk, kthvalue, mode, cummax...: (values, indices)
            res = it.op_result(node, st, [recv] + args, kind=K.TENSOR, attrs={F.FW: fw or "torch"})
            return values_and_indices(res, node)
        if m in _VIEW_METHODS:
            attrs = propagate(recv.attrs, Op.VIEW)
            if m in _ALL_ELEMENT_VIEWS and recv.get(F.SCALAR) is False:
                # `per_sample.unsqueeze(1)`, `.view(-1)`: the same elements in another shape, so
                # still more than one (a 0-dim value does not become one: `loss.view(1)` is 1-dim)
                attrs[F.SCALAR] = False
            if recv.get(F.LEAF) and (recv.get(F.PARAM) or recv.get(F.RG)) and not recv.graphs:
                attrs[F.LEAF_VIEW] = True
            if recv.get(F.RG) and not recv.graphs and not recv.get(F.PARAM) and m != "__getitem__":
                # `x = x.clone().detach().requires_grad_(True)` then `x = x.unsqueeze(0)`: the name
                # now holds a non-leaf view (requires_grad_ itself proves the receiver was a leaf)
                attrs[F.NONLEAF_FROM] = node
            return it.op_result(node, st, [recv] + args, kind=K.TENSOR if recv.kind in (K.TENSOR, K.GRAD) or fw else None,
                                attrs=attrs or None, saves=False)
        return None


# draws of indices from a categorical distribution: integers without history (autograd has no
# derivative for them; `probs.multinomial(1)` too, and a distribution's sample())
SAMPLING = frozenset({"torch.multinomial"})
# the function forms of an in-place clamp (the methods are `x.clamp_(...)` & co)
_INPLACE_CLAMPS = frozenset({"torch.clamp_", "torch.clip_", "torch.clamp_min_"})


def _guard_in_place(it: Interp, st: "State", name: str, guard) -> None:
    """A positive lower bound set in place (`p.clamp_(0.01, 0.99)`, through `p.data.clamp_()`
    too): what `name` holds is kept away from 0 from now on, as after `p = p.clamp(0.01, 0.99)`."""
    cur = it.lookup(name, st)
    if cur.kind in (K.TENSOR, None) and (cur.live or cur.kind == K.TENSOR):
        st.env[name] = cur.with_fact(F.GUARDED, guard)


def _dim_given(args: list[Val], kwargs: dict) -> bool:
    """`x.max(1)`, `torch.max(x, dim=1)`: a dimension (not `x.max(y)`, the elementwise maximum)."""
    if "dim" in kwargs:
        return True
    c = args[0].get(F.CONST) if args else None
    return isinstance(c, int) and not isinstance(c, bool)


def values_and_indices(values: Val, node) -> Val:
    indices = cut(values, Cut("indices", node, hard=False), kind=K.TENSOR, attrs={F.FW: "torch", F.DTYPE: "int"})
    return Val(values.live, values.cuts, values.notes, values.graphs, None,
               {F.ITEMS: (values, indices), F.ITEM_NAMES: ("values", "indices"), F.FW: "torch"})


def _keeps_batch_dim(ev: "CallEvent") -> bool:
    """A reduction of a tensor that keeps a batch dimension (dim 0) leaves it there when the
    dimensions reduced are given as constants and are all positive (`x.sum(1)`, `x.mean((1, 2))`),
    or when `keepdim=True`. A negative dimension (`x.sum(-1)`) may be the batch dimension itself
    (a per-sample vector), and so may a dimension the analysis cannot read."""
    keep = ev.kwargs.get("keepdim")
    if keep is not None and keep.get(F.CONST) is True:
        return True
    dim = ev.arg(0, "dim")
    if dim is None:
        return False
    items = dim.get(F.ITEMS)
    consts = [v.get(F.CONST) for v in items] if items else [dim.get(F.CONST)]
    return bool(consts) and all(isinstance(c, int) and not isinstance(c, bool) and c >= 1 for c in consts)


def reduction_of(kwargs: dict[str, Val]) -> str | None:
    """The reduction a loss module or functional loss is given: `reduction=` when a constant,
    else the deprecated `reduce=`/`size_average=` pair (still accepted by torch, and common in
    code written before 0.4.1): `reduce=False` gives per-element losses whatever
    `size_average` says; `size_average=False` alone sums. None when unknown or not given."""
    red = kwargs.get("reduction")
    if red is not None:
        rc = red.get(F.CONST)
        return rc if isinstance(rc, str) else None
    reduce, size_average = kwargs.get("reduce"), kwargs.get("size_average")
    if reduce is not None and reduce.get(F.CONST) is False:
        return "none"
    if size_average is not None and size_average.get(F.CONST) is False and (reduce is None or reduce.get(F.CONST) is True):
        return "sum"
    return None


TORCH = Torch()
