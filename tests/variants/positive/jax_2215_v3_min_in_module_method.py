# source: variant of 2215_jax_jnp_minimum_of_static_shape_traced.py
# framework: jax
# family: A
# kind: jax-concretization
# pitfall: in a jitted method, the window length is jnp.minimum(seq_len, self.window) (both static ints), staged to a tracer, then used as a slice size
# expect: line 19 — jnp.minimum on static values; its traced result is the size of lax.dynamic_slice
# checked: ran, reproduces (TypeError: Shapes must be 1D sequences of concrete values of integer type)
import jax
import jax.numpy as jnp


class Cropper:
    def __init__(self, window):
        self.window = window
        self.crop = jax.jit(self._crop)

    def _crop(self, x):
        seq_len = x.shape[0]
        size = jnp.minimum(seq_len, self.window)
        return jax.lax.dynamic_slice(x, (0,), (size,))


Cropper(4).crop(jnp.ones(10))
