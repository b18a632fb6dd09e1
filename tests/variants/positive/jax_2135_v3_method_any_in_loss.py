# source: variant of 2135_jax_static_arg_compared_via_jnp_array.py
# framework: jax
# family: A
# kind: jax-concretization
# pitfall: inside a loss given to jax.value_and_grad and jitted, a Python if tests (pred < 0).any() on a traced value
# expect: line 14 — Python if on a method-call reduction of a traced array
# checked: ran, reproduces (TracerBoolConversionError)
import jax
import jax.numpy as jnp


def loss_fn(w, x, y):
    pred = x @ w
    if (pred < 0).any():
        pred = jnp.maximum(pred, 0.0)
    return jnp.mean((pred - y) ** 2)


@jax.jit
def train_step(w, x, y):
    loss, g = jax.value_and_grad(loss_fn)(w, x, y)
    return w - 0.1 * g, loss


train_step(jnp.ones(3), jnp.ones((4, 3)), jnp.zeros(4))
