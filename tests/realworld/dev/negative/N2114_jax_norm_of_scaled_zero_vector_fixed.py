# source: https://github.com/jax-ml/jax/issues/26248
# framework: jax
# kind: nan-grad-singular-point
# negative: the accepted fix — factor the scalar out: jnp.abs(a) * jnp.linalg.norm(x)
# mimics: positive/2114_jax_norm_of_scaled_zero_vector.py
# expect: no finding
# checked: ran, gradient 0.0
import jax
from jax import numpy as jnp

def func2(a, x):
    return jnp.abs(a) * jnp.linalg.norm(x)

a = 1.3
x = jnp.zeros(2)

print(f"{func2.__name__}({a}, {x}) = {func2(a, x)}")
print(f"jax.grad({func2.__name__})({a}, {x}) = {jax.grad(func2)(a, x)}")
