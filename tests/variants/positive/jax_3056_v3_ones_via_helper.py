# source: variant of 3056_jax_jit_lax_full_traced_length.py
# framework: jax
# family: A
# kind: jax-concretization
# pitfall: a helper builds jnp.ones((n, d)) with n coming from the traced argument of a jitted train step
# expect: line 13 — jnp.ones with a dimension taken from the traced argument n
# checked: ran, reproduces (TypeError: Shapes must be 1D sequences of concrete values of integer type)
import jax
import jax.numpy as jnp


def init_hidden(n, d):
    return jnp.ones((n, d))


@jax.jit
def forward(w, x, n):
    h = init_hidden(n, w.shape[0])
    return jnp.tanh(h @ w) + x


forward(jnp.eye(3), jnp.ones(3), 2)
