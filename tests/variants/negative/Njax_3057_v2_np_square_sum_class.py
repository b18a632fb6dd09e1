# source: variant of 3057_jax_grad_numpy_power_mean_loss.py
# framework: jax
# kind: jax-tracer-conversion
# negative: the bug repaired (was: a Trainer's loss method uses np.sum(np.square(...)) on the traced parameters; jax.grad(self.loss) traces it)
# mimics: positive/3057_v2_np_square_sum_class.py
# expect: no finding
# checked: ran, no error (fixed twin)
import numpy as np
import jax
import jax.numpy as jnp


class Trainer:
    def __init__(self, x, y, lr=0.1):
        self.x, self.y, self.lr = x, y, lr
        self.grad_fn = jax.grad(self.loss)

    def loss(self, params):
        residual = params["w"] * self.x + params["b"] - self.y
        return jnp.sum(jnp.square(residual)) / len(self.x)

    def step(self, params):
        grads = self.grad_fn(params)
        return jax.tree_util.tree_map(lambda p, g: p - self.lr * g, params, grads)


x = np.linspace(0, 1, 100)
y = 2 * x + 3
Trainer(x, y).step({"w": 2.4, "b": 10.0})
