# source: variant of 2226_flax_gan_outputs_computed_outside_grad.py
# framework: jax
# family: F
# kind: jax-forward-outside-grad
# pitfall: GAN step with linen apply: fake images and discriminator outputs are computed before the loss closures, which ignore the parameters they are differentiated with respect to, so the generator's gradient is all zeros
# expect: line 34 — the generator's forward pass is computed outside the function differentiated by jax.grad
# checked: ran, reproduces (generator gradients are all zeros)
import jax
import jax.numpy as jnp
import flax.linen as nn


class Generator(nn.Module):
    @nn.compact
    def __call__(self, z):
        return jnp.tanh(nn.Dense(8)(z))


class Discriminator(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(1)(x)


def bce(labels, logits):
    return -jnp.mean(labels * jax.nn.log_sigmoid(logits) + (1.0 - labels) * jax.nn.log_sigmoid(-logits))


gen, disc = Generator(), Discriminator()


def train_step(g_params, d_params, images, key):
    noise = jax.random.normal(key, (16, 4))
    fake = gen.apply(g_params, noise)
    fake_logits = disc.apply(d_params, fake)

    def generator_loss(g_params):
        return bce(jnp.ones_like(fake_logits), fake_logits)

    g_grads = jax.grad(generator_loss)(g_params)
    return g_grads


key = jax.random.PRNGKey(0)
g_params = gen.init(key, jnp.ones((1, 4)))
d_params = disc.init(key, jnp.ones((1, 8)))
g_grads = train_step(g_params, d_params, jnp.ones((16, 8)), key)
print(jax.tree_util.tree_map(lambda g: float(jnp.abs(g).sum()), g_grads))
