# source: variant of 2202_optax_value_and_grad_wrt_y_true_params_global.py
# framework: jax
# family: F
# kind: jax-params-closed-over
# pitfall: loss(x, y) applies the flax model with the global params instead of taking them as an argument; value_and_grad differentiates x, so the "grads" are input gradients and optax.update fails
# expect: line 33 — value_and_grad of a loss whose parameters are a closed-over global
# checked: ran, reproduces (TypeError: unsupported operand type(s) for *: 'float' and 'dict' in optimizer.update)
import jax
import jax.numpy as jnp
import flax.linen as nn
import optax


class Regressor(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(1)(x)


model = Regressor()
x = jnp.ones((16, 3))
y = jnp.zeros((16, 1))
params = model.init(jax.random.PRNGKey(0), x)
optimizer = optax.adam(1e-2)
opt_state = optimizer.init(params)


def loss(x, y):
    return jnp.mean((model.apply(params, x) - y) ** 2)


for step in range(3):
    loss_value, grads = jax.value_and_grad(loss)(x, y)
    updates, opt_state = optimizer.update(grads, opt_state)
    params = optax.apply_updates(params, updates)
