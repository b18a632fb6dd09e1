# source: variant of 2136_jax_grad_has_aux_three_outputs.py
# framework: jax
# family: F
# kind: jax-has-aux
# pitfall: value_and_grad(self.loss_fn, has_aux=True) where the method returns (loss, logits, acc): three values, not (loss, aux)
# expect: line 23 — value_and_grad(has_aux=True) of a method returning a 3-tuple
# checked: ran, reproduces (TypeError: expected function with aux output to return a two-element tuple)
import jax
import jax.numpy as jnp


class Learner:
    def __init__(self, lr=0.1):
        self.lr = lr

    def loss_fn(self, w, x, y):
        logits = x @ w
        loss = jnp.mean(jax.nn.softplus(-y * logits))
        acc = jnp.mean(jnp.sign(logits) == y)
        return loss, logits, acc

    def update(self, w, x, y):
        (loss, aux), g = jax.value_and_grad(self.loss_fn, has_aux=True)(w, x, y)
        return w - self.lr * g, loss


Learner().update(jnp.zeros(3), jnp.ones((4, 3)), jnp.ones(4))
