# source: variant of 2137_jax_grad_square_of_python_int.py
# framework: jax
# family: F
# kind: jax-grad-int-input
# pitfall: jax.grad of a scalar loss evaluated at jnp.arange(5), an int32 array: reverse mode needs float inputs
# expect: line 16 — the differentiated argument xs is an integer array (jnp.arange of ints)
# checked: ran, reproduces (TypeError: grad requires real- or complex-valued inputs ... got int32)
import jax
import jax.numpy as jnp


def energy(x):
    return jnp.sum(x ** 2)

xs = jnp.arange(5)
print(jax.grad(energy)(xs))
