"""Floating-point facts the explanations quote: machine epsilon and ulps per dtype (torch-free)."""

from __future__ import annotations

import math
import struct

# Machine epsilon (spacing of floats at 1.0) by dtype name, as torch names them.
EPS = {
    "float64": 2.0 ** -52,
    "float32": 2.0 ** -23,
    "bfloat16": 2.0 ** -7,
    "float16": 2.0 ** -10,
}
# Smallest normal number, below which ulps stop shrinking.
TINY = {"float64": 2.0 ** -1022, "float32": 2.0 ** -126, "bfloat16": 2.0 ** -126, "float16": 2.0 ** -14}


def dtype_name(dtype: object) -> str:
    """'torch.float32' -> 'float32'; accepts strings and torch dtypes."""
    return str(dtype).replace("torch.", "")


def eps(dtype: object) -> float:
    return EPS.get(dtype_name(dtype), EPS["float64"])


def ulp(x: float, dtype: object = "float64") -> float:
    """Spacing of floats of `dtype` at |x| (the gap to the next representable number away from 0)."""
    name = dtype_name(dtype)
    x = abs(float(x))
    if not math.isfinite(x):
        return math.inf
    if name == "float64":
        return math.ulp(x)
    e = EPS.get(name, EPS["float64"])
    tiny = TINY.get(name, TINY["float64"])
    if x < tiny:
        return tiny * e
    return 2.0 ** math.floor(math.log2(x)) * e


def to_float32(x: float) -> float:
    """Round a Python float to the nearest float32 (what storing it in a float32 tensor does)."""
    return struct.unpack("f", struct.pack("f", x))[0]


def power_of_two(x: float) -> str | None:
    """'2^-9' when x is an exact power of two (ulps are), else None."""
    if x <= 0 or not math.isfinite(x):
        return None
    m, e = math.frexp(x)
    return f"2^{e - 1}" if m == 0.5 else None
