# source: https://jax.readthedocs.io/en/latest/jax-101/01-jax-basics.html
# family: A
# negative: classic NumPy (onp) generates the data and float() converts the returned loss for printing; the differentiated function uses only jnp
# mimics: float() / onp next to jax.value_and_grad and jax.jit
# expect: no finding

import jax
import jax.numpy as jnp
import numpy as onp

xs = onp.random.normal(size=(200, 3)).astype(onp.float32)
ys = xs @ onp.array([1.0, -2.0, 0.5], dtype=onp.float32) + 0.3


def loss_fn(params, x, y):
    pred = x @ params["w"] + params["b"]
    return jnp.mean((pred - y) ** 2)


@jax.jit
def update(params, x, y, lr=0.1):
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    return jax.tree_util.tree_map(lambda p, g: p - lr * g, params, grads), loss


params = {"w": jnp.zeros(3), "b": 0.0}
for step in range(100):
    params, loss = update(params, xs, ys)
    if step % 20 == 0:
        print(step, float(loss), onp.asarray(params["w"]).round(3))
