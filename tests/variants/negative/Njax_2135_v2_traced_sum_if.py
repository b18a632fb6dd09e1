# source: variant of 2135_jax_static_arg_compared_via_jnp_array.py
# framework: jax
# kind: jax-concretization
# negative: the bug repaired (was: Python if on a jnp reduction of a traced argument inside a jitted function (TracerBoolConversionError); use jnp.where / lax.cond)
# mimics: positive/2135_v2_traced_sum_if.py
# expect: no finding
# checked: ran, no error (fixed twin)
import jax
import jax.numpy as jnp


@jax.jit
def safe_normalize(x):
    s = jnp.sum(x)
    return jnp.where(s > 0, x / jnp.where(s > 0, s, 1.0), jnp.zeros_like(x))


safe_normalize(jnp.ones(3))
