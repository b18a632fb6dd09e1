import jax
import jax.numpy as jnp


@jax.jit
def step(w, x):
    loss = jnp.sum((x @ w) ** 2)
    if loss > 1.0:  # expect: GL121
        loss = loss / 2
    return loss


print(step(jnp.ones(4), jnp.ones((3, 4))))
