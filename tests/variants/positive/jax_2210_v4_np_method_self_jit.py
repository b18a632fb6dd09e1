# source: variant of 2210_jax_jacfwd_of_numpy_exp_model.py
# framework: jax
# family: A
# kind: jax-tracer-conversion
# pitfall: a model class's method uses np.exp on its traced argument; jax.jit(jax.jacfwd(self.predict)) traces it
# expect: line 18 — np.exp on the traced argument W inside the method given to jacfwd under jit
# checked: ran, reproduces (TracerArrayConversionError)
import jax
import jax.numpy as jnp
import numpy as np


class ExpModel:
    def __init__(self):
        self.jac = jax.jit(jax.jacfwd(self.predict))

    def predict(self, W):
        comp1 = np.exp(W[0]) * np.exp(-np.exp(W[1]))
        return comp1 + W[2]


ExpModel().jac(jnp.array([0.69, 0.69, -1.6]))
