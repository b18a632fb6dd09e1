# source: variant of 2131_flax_linear_np_asarray_in_call.py
# framework: jax
# family: A
# kind: jax-tracer-conversion
# pitfall: the flax module's __call__ applies NumPy's np.tanh; the module is applied inside an optax train step under value_and_grad and jit, so np.tanh meets a tracer
# expect: line 20 — np.tanh on a traced activation inside a flax.linen Module's __call__
# checked: ran, reproduces (TracerArrayConversionError)
import numpy as np
import jax
import jax.numpy as jnp
import flax.linen as nn
import optax


class Block(nn.Module):
    hidden: int = 8

    @nn.compact
    def __call__(self, x):
        h = np.tanh(nn.Dense(self.hidden)(x))
        return nn.Dense(1)(h)


model = Block()
tx = optax.adam(1e-3)


@jax.jit
def train_step(params, opt_state, x, y):
    def loss_fn(p):
        pred = model.apply(p, x)
        return jnp.mean((pred - y) ** 2)

    loss, grads = jax.value_and_grad(loss_fn)(params)
    updates, opt_state = tx.update(grads, opt_state)
    return optax.apply_updates(params, updates), opt_state, loss


x, y = jnp.ones((4, 3)), jnp.zeros((4, 1))
params = model.init(jax.random.PRNGKey(0), x)
train_step(params, tx.init(params), x, y)
