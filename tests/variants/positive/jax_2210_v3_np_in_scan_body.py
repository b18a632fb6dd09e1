# source: variant of 2210_jax_jacfwd_of_numpy_exp_model.py
# framework: jax
# family: A
# kind: jax-tracer-conversion
# pitfall: a lax.scan step function uses NumPy's np.exp on the traced carry (scan bodies are always traced)
# expect: line 14 — np.exp on the traced carry inside a lax.scan body
# checked: ran, reproduces (TracerArrayConversionError)
import jax
import jax.numpy as jnp
import numpy as np


def decay_step(x, rate):
    x = x * np.exp(-rate)
    return x, x


def simulate(x0, rates):
    _, xs = jax.lax.scan(decay_step, x0, rates)
    return xs


simulate(jnp.float32(1.0), jnp.full(5, 0.1))
