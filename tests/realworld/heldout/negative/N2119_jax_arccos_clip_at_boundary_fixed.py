# source: https://github.com/jax-ml/jax/issues/23649
# framework: jax
# kind: nan-grad-singular-point
# negative: the accepted fix — clip to [-1 + eps, 1 - eps]
# mimics: positive/2119_jax_arccos_clip_at_boundary.py
# expect: no finding
# checked: ran, gradient -0.0
import jax
import jax.numpy as jnp

def f(y):
    eps = jnp.finfo(jnp.array(1.0).dtype).eps  # or similar
    x = jnp.arccos(jnp.clip(y, -1 + eps, 1 - eps))
    return x

print(jax.grad(f)(10.0))
