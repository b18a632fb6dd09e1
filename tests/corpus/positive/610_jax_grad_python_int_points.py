# source: synthetic
# family: F
# pitfall: a table of derivatives is built with a list comprehension that calls jax.grad(f)(k) for Python integers k in range(...)
# expect: line 15 — jax.grad evaluated at integer arguments raises TypeError (grad requires real- or complex-valued inputs); use float(k)

import jax
import jax.numpy as jnp


def softplus(x):
    return jnp.log1p(jnp.exp(x))


dsoftplus = jax.grad(softplus)
table = [dsoftplus(k) for k in range(-3, 4)]
for k, d in zip(range(-3, 4), table):
    print(f"softplus'({k}) = {float(d):.4f}")
