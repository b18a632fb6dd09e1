# source: variant of 2210_jax_jacfwd_of_numpy_exp_model.py
# framework: jax
# kind: jax-tracer-conversion
# negative: the bug repaired (was: a lax.scan step function uses NumPy's np.exp on the traced carry (scan bodies are always traced))
# mimics: positive/2210_v3_np_in_scan_body.py
# expect: no finding
# checked: ran, no error (fixed twin)
import jax
import jax.numpy as jnp
import numpy as np


def decay_step(x, rate):
    x = x * jnp.exp(-rate)
    return x, x


def simulate(x0, rates):
    _, xs = jax.lax.scan(decay_step, x0, rates)
    return xs


simulate(jnp.float32(1.0), jnp.full(5, 0.1))
