# source: variant of 2107_jax_grad_aux_without_has_aux.py
# framework: jax
# family: F
# kind: jax-has-aux
# pitfall: a closure loss returns (loss, {"acc": ...}) and jax.grad is called on it without has_aux=True
# expect: line 20 — jax.grad of a closure returning (loss, metrics dict), without has_aux=True
# checked: ran, reproduces (TypeError: Gradient only defined for scalar-output functions)
import jax
import jax.numpy as jnp


@jax.jit
def update(w, x, y):
    def loss_fn(w):
        logits = x @ w
        loss = jnp.mean(jax.nn.softplus(-y * logits))
        acc = jnp.mean((logits > 0) == (y > 0))
        return loss, {"acc": acc}

    grads = jax.grad(loss_fn)(w)
    return w - 0.1 * grads


update(jnp.zeros(3), jnp.ones((5, 3)), jnp.ones(5))
