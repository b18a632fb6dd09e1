# source: https://github.com/jax-ml/jax/issues/435
# framework: jax
# kind: jax-grad-wrong-argnums
# negative: the accepted fix — grad(f2, argnums=(0, 1))
# mimics: positive/2122_jax_grad_default_argnums_zero.py
# expect: no finding
# checked: ran, gradients (0.0, 1.0)
import jax.numpy as np
from jax import grad, jit, vmap
def f2(a, b):
    c = b * a
    return b

grad_f2 = grad(f2, argnums=(0, 1))
print(grad_f2(2.0, 3.0))
