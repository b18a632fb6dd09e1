# source: variant of 2110_jax_int_ceil_traced_in_jit.py
# framework: jax
# family: A
# kind: jax-concretization
# pitfall: T is marked static, but jnp.ceil inside jit is staged anyway (omnistaging), so int(jnp.ceil(T / dt)) still receives a tracer; static arithmetic must use math/NumPy
# expect: line 17 — int() of a jnp result inside a jitted method (static inputs, staged jnp op)
# checked: ran, reproduces (ConcretizationTypeError)
import jax
import jax.numpy as jnp


class Waveform:
    def __init__(self, delta_t):
        self.delta_t = delta_t

    def initial_processing(self, T):
        n_steps = int(jnp.ceil(T / self.delta_t))
        return jnp.arange(n_steps) * self.delta_t

    def __call__(self, T):
        return jax.jit(self.initial_processing, static_argnums=0)(T)


print(Waveform(0.1)(1.0))
