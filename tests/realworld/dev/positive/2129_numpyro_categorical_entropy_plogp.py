# source: https://github.com/pyro-ppl/numpyro/pull/2276
# framework: jax
# family: E
# kind: nan-grad-singular-point
# pitfall: the categorical entropy multiplies probs by a bare jnp.log(probs); a category with probability exactly 0 gives 0 * -inf = nan in the value and in its gradient
# expect: line 14 — probs * jnp.log(probs) with probs that can be exactly 0
# checked: ran, reproduces (entropy nan, gradient nan at the zero category)
import jax
import jax.numpy as jnp


def entropy(probs):
    probs = jnp.asarray(probs)
    return -(probs * jnp.log(probs)).sum(axis=-1)


print(entropy(jnp.array([0.25, 0.0, 0.75])))
print(jax.grad(entropy)(jnp.array([0.25, 0.0, 0.75])))
