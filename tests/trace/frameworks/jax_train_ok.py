# Correct: float() of a concrete value outside the traced function, for logging.
import jax
import jax.numpy as jnp


def loss(w, x, y):
    return jnp.mean((x @ w - y) ** 2)


key = jax.random.PRNGKey(0)
w = jax.random.normal(key, (8,))
x, y = jax.random.normal(key, (32, 8)), jnp.zeros(32)
grad = jax.jit(jax.grad(loss))
for step in range(5):
    w = w - 0.01 * grad(w, x, y)
    print(step, float(loss(w, x, y)))
