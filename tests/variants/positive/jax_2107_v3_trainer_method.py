# source: variant of 2107_jax_grad_aux_without_has_aux.py
# framework: jax
# family: F
# kind: jax-has-aux
# pitfall: a Trainer's compute_loss method returns (loss, aux) and is given to jax.value_and_grad without has_aux=True
# expect: line 22 — value_and_grad of a method returning a pair, without has_aux=True
# checked: ran, reproduces (TypeError: Gradient only defined for scalar-output functions)
import jax
import jax.numpy as jnp


class Trainer:
    def __init__(self, lr):
        self.lr = lr

    def compute_loss(self, params, x, y):
        pred = x @ params
        err = pred - y
        return jnp.sum(err ** 2), err

    def step(self, params, x, y):
        loss, grads = jax.value_and_grad(self.compute_loss)(params, x, y)
        return params - self.lr * grads, loss


Trainer(0.1).step(jnp.zeros(3), jnp.ones((4, 3)), jnp.ones(4))
