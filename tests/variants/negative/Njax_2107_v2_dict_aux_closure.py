# source: variant of 2107_jax_grad_aux_without_has_aux.py
# framework: jax
# kind: jax-has-aux
# negative: the bug repaired (was: a closure loss returns (loss, {"acc": ...}) and jax.grad is called on it without has_aux=True)
# mimics: positive/2107_v2_dict_aux_closure.py
# expect: no finding
# checked: ran, no error (fixed twin)
import jax
import jax.numpy as jnp


@jax.jit
def update(w, x, y):
    def loss_fn(w):
        logits = x @ w
        loss = jnp.mean(jax.nn.softplus(-y * logits))
        acc = jnp.mean((logits > 0) == (y > 0))
        return loss, {"acc": acc}

    grads, metrics = jax.grad(loss_fn, has_aux=True)(w)
    return w - 0.1 * grads


update(jnp.zeros(3), jnp.ones((5, 3)), jnp.ones(5))
