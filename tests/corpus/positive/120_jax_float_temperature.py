# source: https://jax.readthedocs.io/en/latest/errors.html#jax.errors.ConcretizationTypeError
# family: A
# pitfall: adaptive temperature computed with Python float() on the logits inside the function handed to jax.value_and_grad
# expect: line 12 — float() on a traced value raises ConcretizationTypeError under value_and_grad (and would be a hidden stop_gradient)

import jax
import jax.numpy as jnp


def cross_entropy(params, x, labels):
    logits = x @ params["w"] + params["b"]
    temperature = float(jnp.std(logits)) + 1e-3
    logp = jax.nn.log_softmax(logits / temperature)
    return -jnp.mean(jnp.take_along_axis(logp, labels[:, None], axis=1))


params = {"w": jnp.zeros((20, 5)), "b": jnp.zeros(5)}
x = jax.random.normal(jax.random.PRNGKey(1), (32, 20))
labels = jax.random.randint(jax.random.PRNGKey(2), (32,), 0, 5)

loss, grads = jax.value_and_grad(cross_entropy)(params, x, labels)
params = {k: params[k] - 0.1 * grads[k] for k in params}
print(loss)
