# source: https://github.com/pyro-ppl/numpyro/pull/2276
# framework: jax
# kind: nan-grad-singular-point
# negative: the accepted fix — jax.scipy.special.xlogy(probs, probs), which is 0 at 0
# mimics: positive/2129_numpyro_categorical_entropy_plogp.py
# expect: no finding
# checked: ran, entropy 0.562
import jax
import jax.numpy as jnp
from jax.scipy.special import xlogy


def entropy(probs):
    probs = jnp.asarray(probs)
    return -xlogy(probs, probs).sum(axis=-1)


print(entropy(jnp.array([0.25, 0.0, 0.75])))
