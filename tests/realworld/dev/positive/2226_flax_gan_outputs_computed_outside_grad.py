# source: https://github.com/google/flax/issues/359
# framework: jax
# family: F
# kind: jax-forward-outside-grad
# pitfall: the DCGAN train_step runs the generator and the discriminator (generated_images, real_output, fake_output) before and outside the functions given to jax.grad; the losses close over those precomputed outputs instead of calling the model they are differentiated with respect to, so every gradient is zero (the reporter: moving the three computations under the loss functions made it train)
# expect: line 20 — the generator's forward pass is computed outside the function differentiated by jax.grad, which only closes over its output
# checked: parse-only (pre-linen flax.optim API); the excerpt shows the first lines of train_step, the two loss closures and the updates are reconstructed from the reporter's description
import jax
import jax.numpy as jnp
from jax import random


def cross_entropy(labels, logits):
    return -jnp.mean(labels * jax.nn.log_sigmoid(logits) + (1. - labels) * jax.nn.log_sigmoid(-logits))


@jax.jit
def train_step(generator_optimizer, discriminator_optimizer, images):
    noise = jax.random.normal(random.PRNGKey(0), shape = [256, 100])
    generated_images = generator_optimizer.target(noise)
    real_output = discriminator_optimizer.target(images)
    fake_output = discriminator_optimizer.target(generated_images)

    def generator_loss(generator):
        return cross_entropy(jnp.ones_like(fake_output), fake_output)

    def discriminator_loss(discriminator):
        real_loss = cross_entropy(jnp.ones_like(real_output), real_output)
        fake_loss = cross_entropy(jnp.zeros_like(fake_output), fake_output)
        return real_loss + fake_loss

    generator_grad = jax.grad(generator_loss)(generator_optimizer.target)
    discriminator_grad = jax.grad(discriminator_loss)(discriminator_optimizer.target)
    generator_optimizer = generator_optimizer.apply_gradient(generator_grad)
    discriminator_optimizer = discriminator_optimizer.apply_gradient(discriminator_grad)
    return generator_optimizer, discriminator_optimizer
