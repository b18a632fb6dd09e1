# source: variant of 2110_jax_int_ceil_traced_in_jit.py
# framework: jax
# family: A
# kind: jax-concretization
# pitfall: a helper converts with int(jnp.ceil(...)); it is called from a jitted function with the traced T
# expect: line 13 — int() in the helper, on a value derived from the traced T
# checked: ran, reproduces (ConcretizationTypeError)
import jax
import jax.numpy as jnp


def num_steps(T, delta_t):
    return int(jnp.ceil(T / delta_t))


@jax.jit
def make_times(T):
    delta_t = 0.1
    n = num_steps(T, delta_t)
    return jnp.arange(n) * delta_t


print(make_times(jnp.float32(1.0)))
