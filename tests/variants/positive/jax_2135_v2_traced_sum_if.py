# source: variant of 2135_jax_static_arg_compared_via_jnp_array.py
# framework: jax
# family: A
# kind: jax-concretization
# pitfall: Python if on a jnp reduction of a traced argument inside a jitted function (TracerBoolConversionError); use jnp.where / lax.cond
# expect: line 14 — Python if on a comparison of jnp.sum of the traced x
# checked: ran, reproduces (TracerBoolConversionError)
import jax
import jax.numpy as jnp


@jax.jit
def safe_normalize(x):
    if jnp.sum(x) > 0:
        return x / jnp.sum(x)
    return jnp.zeros_like(x)


safe_normalize(jnp.ones(3))
