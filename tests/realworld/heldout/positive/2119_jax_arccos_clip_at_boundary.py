# source: https://github.com/jax-ml/jax/issues/23649
# framework: jax
# family: E
# kind: nan-grad-singular-point
# pitfall: arccos(clip(y, -1, 1)) is still nan in reverse mode: at |y| >= 1 the clip passes a zero cotangent into arccos' infinite derivative at ±1, and 0 * inf = nan
# expect: line 12 — arccos of a value clipped exactly to [-1, 1], whose derivative is infinite at the bounds
# checked: ran, reproduces (gradient nan)
import jax
import jax.numpy as jnp

def f(y):
    x = jnp.arccos(jnp.clip(y, -1, 1))
    return x

print(jax.grad(f)(10.0))
