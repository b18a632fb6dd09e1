# source: variant of 2226_flax_gan_outputs_computed_outside_grad.py
# framework: jax
# family: F
# kind: jax-forward-outside-grad
# pitfall: a Trainer method runs the forward pass (self.forward(self.params, x)) and then differentiates a loss closure that only closes over the prediction; the gradient with respect to params is all zeros
# expect: line 22 — the forward pass is computed outside the function differentiated by jax.grad
# checked: ran, reproduces (all gradients are zero)
import jax
import jax.numpy as jnp


class Trainer:
    def __init__(self, params, lr=0.1):
        self.params = params
        self.lr = lr

    @staticmethod
    def forward(params, x):
        return jnp.tanh(x @ params["w"]) @ params["v"]

    def step(self, x, y):
        pred = self.forward(self.params, x)

        def loss_fn(params):
            return jnp.mean((pred - y) ** 2)

        grads = jax.grad(loss_fn)(self.params)
        self.params = jax.tree_util.tree_map(lambda p, g: p - self.lr * g, self.params, grads)
        return grads


t = Trainer({"w": jnp.ones((3, 4)), "v": jnp.ones(4)})
print(t.step(jnp.ones((5, 3)), jnp.zeros(5)))
