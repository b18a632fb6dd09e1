# source: variant of 2235_blackjax_chees_float_of_traced_step_size.py
# framework: jax
# family: A
# kind: jax-concretization
# pitfall: float() of jnp.exp(log_scale) inside a function differentiated by jax.grad: log_scale is a JVPTracer, float() raises ConcretizationTypeError
# expect: line 13 — float() of jnp.exp of the differentiated parameter
# checked: ran, reproduces (ConcretizationTypeError)
import jax
import jax.numpy as jnp


def neg_log_lik(log_scale, x):
    scale = float(jnp.exp(log_scale))
    return jnp.sum(0.5 * (x / scale) ** 2 + jnp.log(scale))


g = jax.grad(neg_log_lik)(jnp.float32(0.0), jnp.ones(5))
