# source: variant of 2202_optax_value_and_grad_wrt_y_true_params_global.py
# framework: jax
# family: F
# kind: jax-params-closed-over
# pitfall: the loss method reads self.params instead of taking the parameters as an argument; jax.grad(self.loss) differentiates y_true
# expect: line 27 — grad of a loss whose parameters are read from self; the gradient is taken with respect to y_true
# checked: ran, reproduces (TypeError: unsupported operand type(s) for *: 'float' and 'dict' in optimizer.update)
import jax
import jax.numpy as jnp
import optax


class Regression:
    def __init__(self):
        self.params = {"weights": jnp.ones((3, 3))}
        self.optimizer = optax.adam(0.002)
        self.opt_state = self.optimizer.init(self.params)

    def model(self, x):
        return x.dot(self.params["weights"])

    def loss(self, y_true, x):
        y_pred = self.model(x)
        return jnp.mean((y_true - y_pred) ** 2)

    def fit_step(self, x, y_true):
        grads = jax.grad(self.loss)(y_true, x)
        updates, self.opt_state = self.optimizer.update(grads, self.opt_state)
        self.params = optax.apply_updates(self.params, updates)


x = jnp.ones((16, 3))
Regression().fit_step(x, 5 * x - 10)
