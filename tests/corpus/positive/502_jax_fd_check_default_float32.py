# source: https://jax.readthedocs.io/en/latest/notebooks/Common_Gotchas_in_JAX.html#double-64bit-precision
# family: E
# pitfall: finite-difference check of jax.grad with eps=1e-7 on JAX's default float32 arrays (x64 not enabled)
# expect: line 20 — the perturbation x + eps * e_i is at the float32 resolution limit: (f(x+h) - f(x-h)) is mostly rounding error, so the check fails or passes at random

import jax
import jax.numpy as jnp


def f(x):
    return jnp.sum(jnp.tanh(x) ** 2 * jnp.exp(-x))


x = jnp.linspace(-1.0, 1.0, 8)
g = jax.grad(f)(x)
eps = 1e-7
fd = []
for i in range(x.size):
    e_i = jnp.zeros_like(x).at[i].set(1.0)
    x_plus, x_minus = x + eps * e_i, x - eps * e_i
    fd.append((f(x_plus) - f(x_minus)) / (2 * eps))
fd = jnp.stack(fd)
print(jnp.max(jnp.abs(fd - g)))
