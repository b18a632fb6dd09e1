# source: https://github.com/google-deepmind/optax/issues/291
# framework: jax
# family: B
# kind: jax-forward-outside-grad
# pitfall: the model is applied outside the differentiated function and jax.grad is taken of loss(preds, y), so the "gradients" are with respect to the predictions (input-shaped), not the parameters, and optax cannot apply them to params
# expect: line 22 — jax.grad of a loss that takes predictions, not params; the forward pass is outside grad
# checked: ran with a linear stand-in model, reproduces (optax update fails: gradient tree is not the params tree)
import jax
import jax.numpy as jnp
import optax


def loss(preds, targets):
    out = jnp.mean((preds - targets)**2)
    return out


def train(model, params, x, y):
    opt = optax.adam(learning_rate=0.003)
    opt_state = opt.init(params)
    preds = model.apply(params, x)
    grads = jax.grad(loss)(preds, y)
    updates, opt_state = opt.update(grads, opt_state)
    params = optax.apply_updates(params, updates)
    return params, opt_state
