# source: variant of 2210_jax_jacfwd_of_numpy_exp_model.py
# framework: jax
# family: A
# kind: jax-tracer-conversion
# pitfall: the model passed to jax.vmap(jax.jacrev(...)) uses np.exp/np.sin on its traced input
# expect: line 14 — np.exp on the traced argument inside the function given to jacrev
# checked: ran, reproduces (TracerArrayConversionError)
import jax
import jax.numpy as jnp
import numpy as np


def model(w, x):
    return np.exp(w[0] * x) + np.sin(w[1] * x)


w = jnp.array([0.5, 2.0])
xs = jnp.linspace(0.0, 1.0, 8)
jac = jax.vmap(jax.jacrev(model), in_axes=(None, 0))(w, xs)
