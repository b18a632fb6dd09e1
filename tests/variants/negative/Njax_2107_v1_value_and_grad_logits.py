# source: variant of 2107_jax_grad_aux_without_has_aux.py
# framework: jax
# kind: jax-has-aux
# negative: the bug repaired (was: the loss returns (loss, logits) but jax.value_and_grad is called without has_aux=True inside an optax train step)
# mimics: positive/2107_v1_value_and_grad_logits.py
# expect: no finding
# checked: ran, no error (fixed twin)
import jax
import jax.numpy as jnp
import optax

optimizer = optax.adam(1e-3)


def loss_fn(params, x, labels):
    logits = x @ params["w"] + params["b"]
    loss = optax.softmax_cross_entropy_with_integer_labels(logits, labels).mean()
    return loss, logits


@jax.jit
def train_step(params, opt_state, x, labels):
    (loss, logits), grads = jax.value_and_grad(loss_fn, has_aux=True)(params, x, labels)
    updates, opt_state = optimizer.update(grads, opt_state)
    params = optax.apply_updates(params, updates)
    return params, opt_state, loss


params = {"w": jnp.zeros((4, 3)), "b": jnp.zeros(3)}
train_step(params, optimizer.init(params), jnp.ones((8, 4)), jnp.zeros(8, jnp.int32))
