# source: https://github.com/google/flax/issues/359
# framework: jax
# kind: jax-forward-outside-grad
# negative: the reporter's second version — the generator and discriminator are called inside the loss functions, on the models being differentiated, so gradients flow
# mimics: positive/2226_flax_gan_outputs_computed_outside_grad.py
# expect: no finding
# checked: parse-only (pre-linen flax.optim API); reconstructed from the reporter's description of the change
import jax
import jax.numpy as jnp
from jax import random


def cross_entropy(labels, logits):
    return -jnp.mean(labels * jax.nn.log_sigmoid(logits) + (1. - labels) * jax.nn.log_sigmoid(-logits))


@jax.jit
def train_step(generator_optimizer, discriminator_optimizer, images):
    noise = jax.random.normal(random.PRNGKey(0), shape = [256, 100])

    def generator_loss(generator):
        generated_images = generator(noise)
        fake_output = discriminator_optimizer.target(generated_images)
        return cross_entropy(jnp.ones_like(fake_output), fake_output)

    def discriminator_loss(discriminator):
        generated_images = generator_optimizer.target(noise)
        real_output = discriminator(images)
        fake_output = discriminator(generated_images)
        real_loss = cross_entropy(jnp.ones_like(real_output), real_output)
        fake_loss = cross_entropy(jnp.zeros_like(fake_output), fake_output)
        return real_loss + fake_loss

    generator_grad = jax.grad(generator_loss)(generator_optimizer.target)
    discriminator_grad = jax.grad(discriminator_loss)(discriminator_optimizer.target)
    generator_optimizer = generator_optimizer.apply_gradient(generator_grad)
    discriminator_optimizer = discriminator_optimizer.apply_gradient(discriminator_grad)
    return generator_optimizer, discriminator_optimizer
