# source: variant of 2226_flax_gan_outputs_computed_outside_grad.py
# framework: jax
# family: F
# kind: jax-forward-outside-grad
# pitfall: the flax TrainState step computes logits with state.apply_fn before loss_fn; loss_fn(params) closes over the precomputed logits instead of applying the model with params, so the gradient is all zeros
# expect: line 23 — the forward pass is computed outside the function differentiated by jax.value_and_grad
# checked: ran, reproduces (all gradients are zero; params unchanged after the step)
import jax
import jax.numpy as jnp
import flax.linen as nn
import optax
from flax.training import train_state


class Classifier(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(3)(nn.relu(nn.Dense(16)(x)))


@jax.jit
def train_step(state, images, labels):
    logits = state.apply_fn({"params": state.params}, images)

    def loss_fn(params):
        return optax.softmax_cross_entropy_with_integer_labels(logits, labels).mean()

    loss, grads = jax.value_and_grad(loss_fn)(state.params)
    return state.apply_gradients(grads=grads), loss, grads


model = Classifier()
params = model.init(jax.random.PRNGKey(0), jnp.ones((1, 4)))["params"]
state = train_state.TrainState.create(apply_fn=model.apply, params=params, tx=optax.sgd(0.1))
state, loss, grads = train_step(state, jnp.ones((8, 4)), jnp.zeros(8, jnp.int32))
print(jax.tree_util.tree_map(lambda g: float(jnp.abs(g).sum()), grads))
