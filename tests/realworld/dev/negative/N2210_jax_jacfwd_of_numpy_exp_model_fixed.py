# source: https://github.com/jax-ml/jax/issues/10330
# framework: jax
# kind: jax-tracer-conversion
# negative: the reporter's working version — the same model written with jax.numpy
# mimics: positive/2210_jax_jacfwd_of_numpy_exp_model.py
# expect: no finding
# checked: ran, no error
import jax
import jax.numpy as jnp
import numpy as np


def model_jnp(W):
    comp1 = jnp.exp(W[0])
    comp2 = jnp.exp(-jnp.exp(W[1]))
    comp3 = jnp.exp(W[2])
    comp4 = jnp.exp(-jnp.exp(W[3]))
    return comp1 * comp2 + comp3 * comp4

val = np.array([0.69, 0.69, -1.6, -1.6])
model_grad = jax.jit(jax.jacfwd(model_jnp, argnums=0))
model_grad(val)
