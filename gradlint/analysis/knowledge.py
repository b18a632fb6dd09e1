"""What the analysis knows about framework APIs, by qualified name or method name.

Kept as data so that the interpreter stays generic and the tables can be reviewed at a glance.
"""

from __future__ import annotations

# Canonical prefixes: aliases that name the same API.
QUAL_ALIASES = {
    "tensorflow.python.keras": "keras",
    "tensorflow.keras": "keras",
    "tf_keras": "keras",
    "keras.src": "keras",
    "pytorch_lightning": "lightning.pytorch",
    "lightning.pytorch": "lightning.pytorch",
    "lightning": "lightning",
    "jax.experimental.stax": "jax.example_libraries.stax",
}


_CANON: dict[str, str] = {}


def canonical(qual: str) -> str:
    c = _CANON.get(qual)
    if c is not None:
        return c
    c = qual
    for prefix, repl in QUAL_ALIASES.items():
        if qual == prefix or qual.startswith(prefix + "."):
            c = repl + qual[len(prefix) :]
            break
    if len(_CANON) < 100_000:
        _CANON[qual] = c
    return c


def framework_of(qual: str | None) -> str | None:
    if not qual:
        return None
    head = qual.split(".", 1)[0]
    if head in ("torch", "torchvision", "timm", "transformers", "lightning", "accelerate"):
        return "torch"
    if head in ("tensorflow", "keras"):
        return "tf"
    if head in ("jax", "flax", "optax", "haiku", "equinox"):
        return "jax"
    if head == "numpy":
        return "np"
    return None


# --------------------------------------------------------------------------- torch
TORCH_FACTORIES = frozenset(
    {
        "torch.randn", "torch.rand", "torch.zeros", "torch.ones", "torch.empty", "torch.full",
        "torch.arange", "torch.linspace", "torch.logspace", "torch.eye", "torch.randint",
        "torch.randperm", "torch.normal", "torch.tensor", "torch.as_tensor", "torch.from_numpy",
        "torch.zeros_like", "torch.ones_like", "torch.empty_like", "torch.full_like",
        "torch.randn_like", "torch.rand_like", "torch.randint_like", "torch.Tensor",
        "torch.FloatTensor", "torch.DoubleTensor", "torch.LongTensor", "torch.HalfTensor",
        "torch.IntTensor", "torch.BoolTensor", "torch.cuda.FloatTensor", "torch.scalar_tensor",
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
BUILTIN_CASTS = {"builtins.float": "float", "builtins.int": "int", "builtins.bool": "bool", "builtins.complex": "float"}

TORCH_NO_GRAD = frozenset({"torch.no_grad", "torch.autograd.no_grad", "torch.autograd.grad_mode.no_grad"})
TORCH_ENABLE_GRAD = frozenset({"torch.enable_grad", "torch.autograd.enable_grad"})
TORCH_INFERENCE = frozenset({"torch.inference_mode", "torch.autograd.inference_mode"})
TORCH_SET_GRAD = frozenset({"torch.set_grad_enabled", "torch.autograd.set_grad_enabled"})

TORCH_AUTOGRAD_GRAD = frozenset({"torch.autograd.grad"})
TORCH_AUTOGRAD_BACKWARD = frozenset({"torch.autograd.backward"})
TORCH_PARAMETER = frozenset({"torch.nn.Parameter", "torch.nn.parameter.Parameter"})
TORCH_DETACH_FUNCS = frozenset({"torch.detach"})
TORCH_OPTIMIZER_PREFIXES = ("torch.optim.", "torch_optimizer.", "bitsandbytes.optim.", "apex.optimizers.", "transformers.optimization.", "timm.optim.")
TORCH_OPTIMIZER_NON_OPT = frozenset({"lr_scheduler", "swa_utils", "Optimizer"})
TORCH_GRADSCALER = frozenset(
    {"torch.cuda.amp.GradScaler", "torch.amp.GradScaler", "torch.GradScaler", "torch.cpu.amp.GradScaler"}
)
TORCH_AUTOCAST = frozenset({"torch.autocast", "torch.cuda.amp.autocast", "torch.amp.autocast", "torch.cpu.amp.autocast"})
TORCH_CHECKPOINT = frozenset({"torch.utils.checkpoint.checkpoint", "torch.utils.checkpoint.checkpoint_sequential"})
TORCH_GRADCHECK = frozenset(
    {"torch.autograd.gradcheck", "torch.autograd.gradgradcheck", "torch.autograd.gradcheck.gradcheck", "torch.autograd.gradcheck.gradgradcheck"}
)
TORCH_CLIP = frozenset({"torch.nn.utils.clip_grad_norm_", "torch.nn.utils.clip_grad_value_", "torch.nn.utils.clip_grad_norm"})

# Module base classes (anything subclassing these is trainable).
MODULE_BASES = (
    "torch.nn.Module", "torch.nn.modules.module.Module", "keras.Model", "keras.layers.Layer",
    "keras.Layer", "keras.models.Model", "keras.Sequential", "tensorflow.Module",
    "lightning.pytorch.LightningModule", "lightning.LightningModule", "lightning.pytorch.core.LightningModule",
    "flax.linen.Module", "equinox.Module", "transformers.PreTrainedModel",
)
LIGHTNING_BASES = ("lightning.pytorch.LightningModule", "lightning.LightningModule", "lightning.pytorch.core.LightningModule")
AUTOGRAD_FUNCTION_BASES = ("torch.autograd.Function", "torch.autograd.function.Function")
OPTIMIZER_BASES = ("torch.optim.Optimizer", "torch.optim.optimizer.Optimizer")

# --------------------------------------------------------------------------- tensorflow
TF_TAPE = frozenset({"tensorflow.GradientTape", "tensorflow.autodiff.GradientTape"})
TF_VARIABLE = frozenset({"tensorflow.Variable", "keras.Variable", "keras.backend.Variable"})
TF_CONST = frozenset(
    {
        "tensorflow.constant", "tensorflow.convert_to_tensor", "tensorflow.zeros", "tensorflow.ones",
        "tensorflow.fill", "tensorflow.range", "tensorflow.linspace", "tensorflow.eye",
        "tensorflow.random.normal", "tensorflow.random.uniform", "tensorflow.random.truncated_normal",
        "tensorflow.zeros_like", "tensorflow.ones_like",
    }
)
TF_STOP_GRADIENT = frozenset({"tensorflow.stop_gradient", "keras.ops.stop_gradient", "keras.backend.stop_gradient"})
TF_CAST = frozenset({"tensorflow.cast", "keras.ops.cast", "keras.backend.cast", "tensorflow.dtypes.cast"})

# --------------------------------------------------------------------------- jax
JAX_GRAD = frozenset({"jax.grad", "jax.value_and_grad"})
JAX_JACOBIAN = frozenset({"jax.jacrev", "jax.jacfwd", "jax.jacobian", "jax.hessian"})
JAX_VJP = frozenset({"jax.vjp", "jax.jvp", "jax.linearize"})
JAX_JIT = frozenset({"jax.jit", "jax.pmap", "jax.vmap", "flax.linen.jit", "equinox.filter_jit"})
JAX_STOP_GRADIENT = frozenset({"jax.lax.stop_gradient"})
JAX_TRANSFORMS = JAX_GRAD | JAX_JACOBIAN | JAX_VJP | JAX_JIT

ACCELERATE_BACKWARD_METHODS = frozenset({"backward", "manual_backward"})
