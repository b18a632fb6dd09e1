# source: variant of 2137_jax_grad_square_of_python_int.py
# framework: jax
# kind: jax-grad-int-input
# negative: the bug repaired (was: jax.grad of a scalar loss evaluated at jnp.arange(5), an int32 array: reverse mode needs float inputs)
# mimics: positive/2137_v1_int_arange.py
# expect: no finding
# checked: ran, no error (fixed twin)
import jax
import jax.numpy as jnp


def energy(x):
    return jnp.sum(x ** 2)

xs = jnp.arange(5.0)
print(jax.grad(energy)(xs))
