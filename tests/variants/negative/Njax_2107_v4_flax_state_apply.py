# source: variant of 2107_jax_grad_aux_without_has_aux.py
# framework: jax
# kind: jax-has-aux
# negative: the bug repaired (was: flax TrainState training step: loss_fn returns (loss, logits) and jax.value_and_grad(loss_fn) is used without has_aux=True)
# mimics: positive/2107_v4_flax_state_apply.py
# expect: no finding
# checked: ran, no error (fixed twin)
import jax
import jax.numpy as jnp
import flax.linen as nn
import optax
from flax.training import train_state


class CNN(nn.Module):
    @nn.compact
    def __call__(self, x):
        x = nn.relu(nn.Dense(16)(x))
        return nn.Dense(10)(x)


@jax.jit
def train_step(state, batch):
    def loss_fn(params):
        logits = state.apply_fn({"params": params}, batch["image"])
        loss = optax.softmax_cross_entropy_with_integer_labels(logits, batch["label"]).mean()
        return loss, logits

    grad_fn = jax.value_and_grad(loss_fn, has_aux=True)
    (loss, logits), grads = grad_fn(state.params)
    return state.apply_gradients(grads=grads), loss


model = CNN()
params = model.init(jax.random.PRNGKey(0), jnp.ones((1, 8)))["params"]
state = train_state.TrainState.create(apply_fn=model.apply, params=params, tx=optax.sgd(0.1))
train_step(state, {"image": jnp.ones((4, 8)), "label": jnp.zeros(4, jnp.int32)})
