"""The array vocabulary the frameworks share. PyTorch's method names are the lingua franca:
NumPy, TensorFlow and JAX arrays have the same `argmax`, `numpy()`, `item()`, `long()`, so
these tables serve every overlay (and the rules)."""

from __future__ import annotations

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
