# source: variant of 2137_jax_grad_square_of_python_int.py
# framework: jax
# kind: jax-grad-int-input
# negative: the bug repaired (was: the differentiated argument is jnp.array([1, 2, 3]), an int32 array; jax.grad raises for integer inputs)
# mimics: positive/2137_v3_jnp_array_int.py
# expect: no finding
# checked: ran, no error (fixed twin)
import jax
import jax.numpy as jnp


def loss(w, x):
    return jnp.sum((x @ w) ** 2)

w0 = jnp.array([1.0, 2.0, 3.0])
grad_fn = jax.grad(loss)
g = grad_fn(w0, jnp.ones((2, 3)))
