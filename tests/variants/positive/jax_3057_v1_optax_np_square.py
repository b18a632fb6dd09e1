# source: variant of 3057_jax_grad_numpy_power_mean_loss.py
# framework: jax
# family: A
# kind: jax-tracer-conversion
# pitfall: the MSE loss in an optax training step is written with NumPy: np.square (a ufunc) on the traced prediction converts it with __array__
# expect: line 16 — np.square (NumPy ufunc, not jax.numpy) on the traced prediction inside the function given to value_and_grad
# checked: ran, reproduces (TracerArrayConversionError)
import numpy as np
import jax
import jax.numpy as jnp
import optax


def loss_fn(params, x, y):
    pred = x @ params["w"] + params["b"]
    return np.mean(np.square(pred - y))


optimizer = optax.sgd(0.1)


@jax.jit
def train_step(params, opt_state, x, y):
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    updates, opt_state = optimizer.update(grads, opt_state)
    return optax.apply_updates(params, updates), opt_state, loss


params = {"w": jnp.zeros((3,)), "b": jnp.float32(0.0)}
x, y = jnp.ones((8, 3)), jnp.ones(8)
train_step(params, optimizer.init(params), x, y)
