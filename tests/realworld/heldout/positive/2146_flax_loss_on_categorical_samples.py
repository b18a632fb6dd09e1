# source: https://github.com/jax-ml/jax/issues/17556
# framework: jax
# family: E
# kind: nondiff-op-on-loss-path
# pitfall: the loss compares integer samples drawn with jax.random.categorical from the model's probabilities against the target; sampling returns integers with no gradient path to the logits, so value_and_grad gives all-zero gradients
# expect: line 17 — jax.random.categorical turns the model output into integer samples; the loss built from them has zero gradient with respect to the parameters
# checked: ran, reproduces (loss 4.0, every gradient entry 0.0)
import jax
import optax
import flax.linen as nn
import jax.numpy as jnp
from flax.training import train_state


def calculate_loss(params, model, trg, input):
    prob_list = model.apply(params, input)
    samples = jax.random.categorical(sample_rng, prob_list, axis=1)
    loss = jnp.mean(jnp.square(samples - trg))

    # trg = jnp.repeat(jnp.array([trg]), repeats=prob_list.shape[1], axis=1)
    # loss = jnp.mean(jnp.square(prob_list - trg))
    return loss


layer = nn.Sequential([nn.Dense(4), nn.softmax])
main_rng = jax.random.PRNGKey(0)
main_rng, sample_rng, dense_rng = jax.random.split(main_rng, 3)

init_sample = jnp.array([[1,1,0,0]])
params = layer.init(dense_rng, init_sample)

optimizer = optax.adam(learning_rate=0.1)
state = train_state.TrainState.create(apply_fn=layer.apply, params=params, tx=optimizer)

ground = jnp.array([0])
loss, grads = jax.value_and_grad(calculate_loss)(state.params, layer, ground, init_sample)
state = state.apply_gradients(grads=grads)
