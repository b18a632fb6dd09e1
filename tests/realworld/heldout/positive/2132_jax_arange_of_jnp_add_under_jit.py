# source: https://github.com/jax-ml/jax/issues/5186
# framework: jax
# family: A
# kind: jax-concretization
# pitfall: the length given to jnp.arange is computed with jnp.add inside the jitted function; with omnistaging that value is a tracer, so arange raises ConcretizationTypeError (snippet from the maintainer's reply reproducing the reporter's failure)
# expect: line 14 — jnp.arange needs a concrete length, but n was computed by a jnp operation inside jit
# checked: ran, reproduces (ConcretizationTypeError)
import jax.numpy as jnp
from jax import jit


def test_arange():
  n = jnp.add(2, 3)
  return jnp.arange(n)

test = jit(test_arange)

test()
