# source: variant of 2137_jax_grad_square_of_python_int.py
# framework: jax
# family: F
# kind: jax-grad-int-input
# pitfall: jax.value_and_grad called with the Python int 2 as the differentiated argument
# expect: line 15 — the differentiated argument is the integer literal 2
# checked: ran, reproduces (TypeError: grad requires real- or complex-valued inputs ... got int32)
import jax
import jax.numpy as jnp


def f(x, a):
    return a * jnp.sin(x) ** 2

value, slope = jax.value_and_grad(f)(2, 0.5)
