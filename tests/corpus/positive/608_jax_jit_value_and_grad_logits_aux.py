# source: https://jax.readthedocs.io/en/latest/_autosummary/jax.value_and_grad.html
# family: F
# pitfall: jit-compiled training step uses jax.value_and_grad on compute_loss, which returns (loss, logits) for accuracy logging
# expect: line 19 — value_and_grad on a function returning a tuple needs has_aux=True; otherwise it raises TypeError at trace time

import jax
import jax.numpy as jnp


def compute_loss(params, images, labels):
    logits = jnp.dot(images, params["W"]) + params["b"]
    one_hot = jax.nn.one_hot(labels, 10)
    loss = -jnp.mean(jnp.sum(one_hot * jax.nn.log_softmax(logits), axis=-1))
    return loss, logits


@jax.jit
def train_step(params, images, labels, lr=0.1):
    (loss, logits), grads = jax.value_and_grad(compute_loss)(params, images, labels)
    params = jax.tree_util.tree_map(lambda p, g: p - lr * g, params, grads)
    acc = jnp.mean(jnp.argmax(logits, -1) == labels)
    return params, loss, acc


params = {"W": jnp.zeros((784, 10)), "b": jnp.zeros(10)}
images = jax.random.uniform(jax.random.PRNGKey(0), (64, 784))
labels = jax.random.randint(jax.random.PRNGKey(1), (64,), 0, 10)
params, loss, acc = train_step(params, images, labels)
