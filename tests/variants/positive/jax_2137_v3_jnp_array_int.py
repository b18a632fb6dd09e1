# source: variant of 2137_jax_grad_square_of_python_int.py
# framework: jax
# family: F
# kind: jax-grad-int-input
# pitfall: the differentiated argument is jnp.array([1, 2, 3]), an int32 array; jax.grad raises for integer inputs
# expect: line 17 — the differentiated argument w0 is an integer array
# checked: ran, reproduces (TypeError: grad requires real- or complex-valued inputs ... got int32)
import jax
import jax.numpy as jnp


def loss(w, x):
    return jnp.sum((x @ w) ** 2)

w0 = jnp.array([1, 2, 3])
grad_fn = jax.grad(loss)
g = grad_fn(w0, jnp.ones((2, 3)))
