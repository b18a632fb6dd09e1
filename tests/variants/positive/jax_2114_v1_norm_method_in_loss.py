# source: variant of 2114_jax_norm_of_scaled_zero_vector.py
# framework: jax
# family: E
# kind: nan-grad-singular-point
# pitfall: a Matern-style kernel computes jnp.linalg.norm(a * (x1 - x2)) on the diagonal, where x1 - x2 is the zero vector, so the gradient with respect to the length scale is nan
# expect: line 13 — norm of a difference that is the zero vector on the diagonal, differentiated with respect to a
# checked: ran, reproduces (gradient nan)
import jax
import jax.numpy as jnp


def matern12(a, x1, x2):
    r = jnp.linalg.norm(a * (x1 - x2))
    return jnp.exp(-r)


x = jnp.ones(2)
print(jax.grad(matern12)(1.3, x, x))
