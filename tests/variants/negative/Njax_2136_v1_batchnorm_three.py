# source: variant of 2136_jax_grad_has_aux_three_outputs.py
# framework: jax
# kind: jax-has-aux
# negative: the bug repaired (was: with has_aux=True the loss must return (loss, aux); this flax BatchNorm loss returns (loss, logits, new_batch_stats), three values)
# mimics: positive/2136_v1_batchnorm_three.py
# expect: no finding
# checked: ran, no error (fixed twin)
import jax
import jax.numpy as jnp
import flax.linen as nn
import optax


class Net(nn.Module):
    @nn.compact
    def __call__(self, x, train):
        x = nn.Dense(8)(x)
        x = nn.BatchNorm(use_running_average=not train)(x)
        return nn.Dense(2)(nn.relu(x))


model = Net()
tx = optax.sgd(0.1)


@jax.jit
def train_step(params, batch_stats, opt_state, x, y):
    def loss_fn(params):
        logits, updates = model.apply({"params": params, "batch_stats": batch_stats}, x, train=True,
                                      mutable=["batch_stats"])
        loss = optax.softmax_cross_entropy_with_integer_labels(logits, y).mean()
        return loss, (logits, updates["batch_stats"])

    (loss, (logits, new_stats)), grads = jax.value_and_grad(loss_fn, has_aux=True)(params)
    upd, opt_state = tx.update(grads, opt_state)
    return optax.apply_updates(params, upd), new_stats, opt_state, loss


x, y = jnp.ones((4, 3)), jnp.zeros(4, jnp.int32)
variables = model.init(jax.random.PRNGKey(0), x, train=False)
train_step(variables["params"], variables["batch_stats"], tx.init(variables["params"]), x, y)
