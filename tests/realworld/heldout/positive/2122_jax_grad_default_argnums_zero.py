# source: https://github.com/jax-ml/jax/issues/435
# framework: jax
# family: F
# kind: jax-grad-wrong-argnums
# pitfall: jax.grad differentiates only with respect to the first positional argument by default; returning b (or c) and expecting its derivative in b gives 0.0 (or b's coefficient) silently
# expect: line 14 — grad(f2) without argnums differentiates only with respect to a
# checked: ran, reproduces (gradient 0.0 for a function of b)
import jax.numpy as np
from jax import grad, jit, vmap
def f2(a, b):
    c = b * a
    return b

grad_f2 = grad(f2)
print(grad_f2(2.0, 3.0))
