# source: https://github.com/asantini29/phentax/pull/28
# framework: jax
# family: A
# kind: jax-concretization
# pitfall: int(jnp.ceil(T / delta_t)) needs a concrete value, but under jax.jit T is a tracer, so tracing fails with ConcretizationTypeError
# expect: line 17 — int() of a jnp result computed from a traced argument inside a jitted method
# checked: ran, reproduces (ConcretizationTypeError when called under jit)
import jax
import jax.numpy as jnp


class IMRPhenomTHM:
    def __init__(self, delta_t):
        self.delta_t = delta_t

    def initial_processing(self, T):
        n_steps = int(jnp.ceil(T / self.delta_t))
        times = jnp.arange(n_steps) * self.delta_t
        return times

    def __call__(self, T):
        return jax.jit(self.initial_processing)(T)
