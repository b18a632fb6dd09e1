# source: https://github.com/jax-ml/jax/issues/19089
# framework: jax
# family: E
# kind: where-nan-gradient
# pitfall: delta**0.5 is computed for a zero entry and only then masked with delta > 0; the masked-out entry's infinite derivative makes the gradient nan
# expect: line 16 — the fractional power is applied before the mask, at an entry equal to 0
# checked: ran, reproduces (gradient nan)
import jax.numpy as jnp
from jax import grad

def f(x, pre_filter=False):
    delta = jnp.array((0, 1)) * x
    if pre_filter:
        return jnp.sum( delta[delta > 0]**0.5 )
    else:
        return jnp.sum( (delta**0.5)[delta > 0] )
print(grad(f)(1.))
