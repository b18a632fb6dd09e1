# source: https://github.com/jax-ml/jax/issues/424
# framework: jax
# family: F
# kind: jax-grad-int-input
# pitfall: grad(square) is called with the Python int 3; reverse-mode differentiation is only defined for inexact (float/complex) inputs, so JAX raises (in early versions it silently returned an integer-typed result)
# expect: line 16 — the differentiated argument val is the integer 3
# checked: ran, reproduces (TypeError: grad requires real- or complex-valued inputs ... got int32)
from jax import grad


def square(x):
  return x**2

val = 3
dfn = grad(square)
print(dfn(val))
