# source: variant of 3057_jax_grad_numpy_power_mean_loss.py
# framework: jax
# kind: jax-tracer-conversion
# negative: np.mean on a jax array delegates to its .mean() method (no __array__ conversion), so this loss runs under grad and jit
# mimics: positive/3057_v1_optax_np_square.py
# expect: no finding
# checked: ran, no error (fixed twin)
import numpy as np
import jax
import jax.numpy as jnp
import optax


def loss_fn(params, x, y):
    pred = x @ params["w"] + params["b"]
    return np.mean((pred - y) ** 2)  # np.mean delegates to the array's .mean()


optimizer = optax.sgd(0.1)


@jax.jit
def train_step(params, opt_state, x, y):
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    updates, opt_state = optimizer.update(grads, opt_state)
    return optax.apply_updates(params, updates), opt_state, loss


params = {"w": jnp.zeros((3,)), "b": jnp.float32(0.0)}
x, y = jnp.ones((8, 3)), jnp.ones(8)
train_step(params, optimizer.init(params), x, y)
