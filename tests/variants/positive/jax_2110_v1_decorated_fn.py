# source: variant of 2110_jax_int_ceil_traced_in_jit.py
# framework: jax
# family: A
# kind: jax-concretization
# pitfall: int(jnp.ceil(T / dt)) inside a @jax.jit function: T is a traced argument, int() needs a concrete value
# expect: line 14 — int() of a jnp.ceil of the traced argument T
# checked: ran, reproduces (ConcretizationTypeError)
import jax
import jax.numpy as jnp


@jax.jit
def time_grid(T, dt):
    n_steps = int(jnp.ceil(T / dt))
    return jnp.arange(n_steps) * dt


print(time_grid(1.0, 0.1))
