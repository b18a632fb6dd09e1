# source: variant of 2226_flax_gan_outputs_computed_outside_grad.py
# framework: jax
# kind: jax-forward-outside-grad
# negative: the bug repaired (was: a Trainer method runs the forward pass (self.forward(self.params, x)) and then differentiates a loss closure that only closes over the prediction; the gradient with respect to params is all zeros)
# mimics: positive/2226_v3_self_model_outside.py
# expect: no finding
# checked: ran, no error (fixed twin)
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

        def loss_fn(params):
            pred = self.forward(params, x)
            return jnp.mean((pred - y) ** 2)

        grads = jax.grad(loss_fn)(self.params)
        self.params = jax.tree_util.tree_map(lambda p, g: p - self.lr * g, self.params, grads)
        return grads


t = Trainer({"w": jnp.ones((3, 4)), "v": jnp.ones(4)})
print(t.step(jnp.ones((5, 3)), jnp.zeros(5)))
