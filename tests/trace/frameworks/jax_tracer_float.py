import jax
import jax.numpy as jnp


def loss(w, x, y):
    pred = x @ w
    scale = float(jnp.mean(pred))  # expect: GL121
    return jnp.mean((pred * scale - y) ** 2)


key = jax.random.PRNGKey(0)
w = jax.random.normal(key, (8,))
x, y = jax.random.normal(key, (32, 8)), jnp.zeros(32)
for step in range(5):
    w = w - 0.01 * jax.grad(loss)(w, x, y)
