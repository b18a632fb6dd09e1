# source: variant of 2136_jax_grad_has_aux_three_outputs.py
# framework: jax
# kind: jax-has-aux
# negative: the bug repaired (was: value_and_grad(self.loss_fn, has_aux=True) where the method returns (loss, logits, acc): three values, not (loss, aux))
# mimics: positive/2136_v3_value_and_grad_method.py
# expect: no finding
# checked: ran, no error (fixed twin)
import jax
import jax.numpy as jnp


class Learner:
    def __init__(self, lr=0.1):
        self.lr = lr

    def loss_fn(self, w, x, y):
        logits = x @ w
        loss = jnp.mean(jax.nn.softplus(-y * logits))
        acc = jnp.mean(jnp.sign(logits) == y)
        return loss, (logits, acc)

    def update(self, w, x, y):
        (loss, aux), g = jax.value_and_grad(self.loss_fn, has_aux=True)(w, x, y)
        return w - self.lr * g, loss


Learner().update(jnp.zeros(3), jnp.ones((4, 3)), jnp.ones(4))
