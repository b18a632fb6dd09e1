# source: variant of 2210_jax_jacfwd_of_numpy_exp_model.py
# framework: jax
# family: A
# kind: jax-tracer-conversion
# pitfall: the loss given to jax.value_and_grad calls NumPy's np.exp on the traced parameters
# expect: line 14 — np.exp on the traced parameter theta inside the differentiated loss
# checked: ran, reproduces (TracerArrayConversionError)
import jax
import jax.numpy as jnp
import numpy as np


def loss(theta, t, y):
    pred = theta[0] * np.exp(-theta[1] * t)
    return jnp.mean((pred - y) ** 2)


t = jnp.linspace(0.0, 1.0, 20)
y = 2.0 * jnp.exp(-0.5 * t)
value, grads = jax.value_and_grad(loss)(jnp.array([1.0, 1.0]), t, y)
