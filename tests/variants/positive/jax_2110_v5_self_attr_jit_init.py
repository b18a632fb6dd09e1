# source: variant of 2110_jax_int_ceil_traced_in_jit.py
# framework: jax
# family: A
# kind: jax-concretization
# pitfall: the jitted method is built once in __init__ (self._process = jax.jit(self.process)); inside, int(jnp.ceil(...)) of the traced T
# expect: line 18 — int() of jnp.ceil of the traced argument T
# checked: ran, reproduces (ConcretizationTypeError)
import jax
import jax.numpy as jnp


class Waveform:
    def __init__(self, delta_t):
        self.delta_t = delta_t
        self._process = jax.jit(self.process)

    def process(self, T):
        n_steps = int(jnp.ceil(T / self.delta_t))
        return jnp.arange(n_steps) * self.delta_t

    def __call__(self, T):
        return self._process(T)


print(Waveform(0.1)(jnp.float32(1.0)))
