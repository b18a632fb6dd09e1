# source: https://github.com/jax-ml/jax/issues/3974
# framework: jax
# family: A
# kind: jax-concretization
# pitfall: n is a static argument, but wrapping it in a JAX array (np is jax.numpy here) stages the comparison, so the Python if receives a tracer and raises (TracerBoolConversionError); the thread's fix compares a classic NumPy array
# expect: line 15 — Python if on a jax.numpy comparison inside a jitted function (the comparison is staged even though n is static)
# checked: ran, reproduces (TracerBoolConversionError); reconstructed from the thread: the report imported jax.numpy as np and the working version switched to classic NumPy
from functools import partial
import jax
import jax.numpy as np


@partial(jax.jit, static_argnums=(0,))
def foo(n):
    if np.array(n) > 1:
        return np.ones(1)
    return np.zeros(1)

foo(3)
