# source: variant of 2137_jax_grad_square_of_python_int.py
# framework: jax
# family: F
# kind: jax-grad-int-input
# pitfall: derivative evaluated on a grid of integers: jax.vmap(jax.grad(square)) over jnp.arange(10) (int32)
# expect: line 17 — the differentiated argument grid is an integer array
# checked: ran, reproduces (TypeError: grad requires real- or complex-valued inputs ... got int32)
import jax
import jax.numpy as jnp


def square(x):
    return x ** 2

grid = jnp.arange(10)
dsquare = jax.vmap(jax.grad(square))
print(dsquare(grid))
