# source: https://github.com/PythonOT/POT/issues/625
# framework: jax
# family: A
# kind: jax-tracer-conversion
# pitfall: ot.emd runs its solver on NumPy arrays, so calling it on traced costs inside grad converts a tracer to NumPy (TracerArrayConversionError)
# expect: line 24 — pot.emd on traced jnp costs inside the differentiated function
# checked: parse only (POT is not installed in the scratch venv)
import jax.numpy as jnp
from jax import random, grad
import ot as pot

key = random.PRNGKey(0)
B = 10

key, subkey = random.split(key)
x = random.normal(subkey, (B, 1))
key, subkey = random.split(key)
y = random.normal(subkey, (B, 1))


def loss_fn(x, y):
    costs = jnp.linalg.norm(x[:, None] - y[None, :], axis=-1)**2

    pi = pot.emd(
        jnp.ones(B) / B,
        jnp.ones(B) / B,
        costs)

    return jnp.sum(pi * costs)

g = grad(loss_fn)(x, y)
print(g)
