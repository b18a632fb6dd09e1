# source: variant of 2137_jax_grad_square_of_python_int.py
# framework: jax
# kind: jax-grad-int-input
# negative: the bug repaired (was: derivative evaluated on a grid of integers: jax.vmap(jax.grad(square)) over jnp.arange(10) (int32))
# mimics: positive/2137_v4_vmap_grad_range.py
# expect: no finding
# checked: ran, no error (fixed twin)
import jax
import jax.numpy as jnp


def square(x):
    return x ** 2

grid = jnp.arange(10, dtype=jnp.float32)
dsquare = jax.vmap(jax.grad(square))
print(dsquare(grid))
