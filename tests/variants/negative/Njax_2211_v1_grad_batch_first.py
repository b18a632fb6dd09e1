# source: variant of 2211_flax_optax_params_not_first_argument.py
# framework: jax
# kind: jax-grad-wrong-argnums
# negative: the bug repaired (was: loss_fn(batch, params) takes the parameters second, but jax.grad differentiates argument 0 (the batch) by default)
# mimics: positive/2211_v1_grad_batch_first.py
# expect: no finding
# checked: ran, no error (fixed twin)
import jax
import jax.numpy as jnp
import flax.linen as nn
import optax


class Model(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(1)(nn.tanh(nn.Dense(16)(x)))


model = Model()
optimizer = optax.adam(1e-3)


def loss_fn(batch, params):
    pred = model.apply(params, batch["x"])
    return jnp.mean((pred.squeeze() - batch["y"]) ** 2)


@jax.jit
def train_step(params, opt_state, batch):
    grads = jax.grad(loss_fn, argnums=1)(batch, params)
    updates, opt_state = optimizer.update(grads, opt_state)
    return optax.apply_updates(params, updates), opt_state


batch = {"x": jnp.ones((8, 4)), "y": jnp.zeros(8)}
params = model.init(jax.random.PRNGKey(0), batch["x"])
train_step(params, optimizer.init(params), batch)
