# source: https://github.com/jax-ml/jax/issues/10330
# framework: jax
# family: A
# kind: jax-tracer-conversion
# pitfall: the function differentiated by jax.jit(jax.jacfwd(...)) calls NumPy's np.exp on its traced input; NumPy converts the tracer with __array__ and raises TracerArrayConversionError
# expect: line 14 — np.exp on the traced argument W inside the function given to jacfwd under jit (the same on the next lines)
# checked: ran, reproduces (TracerArrayConversionError)
import jax
import jax.numpy as jnp
import numpy as np


def model_np(W):
    comp1 = np.exp(W[0])
    comp2 = np.exp(-np.exp(W[1]))
    comp3 = np.exp(W[2])
    comp4 = np.exp(-np.exp(W[3]))
    return comp1 * comp2 + comp3 * comp4

val = np.array([0.69, 0.69, -1.6, -1.6])
model_grad = jax.jit(jax.jacfwd(model_np, argnums=0))
model_grad(val)
