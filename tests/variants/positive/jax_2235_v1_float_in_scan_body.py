# source: variant of 2235_blackjax_chees_float_of_traced_step_size.py
# framework: jax
# family: A
# kind: jax-concretization
# pitfall: inside a lax.scan body, float() of jnp.exp(log_step_size) from the carried state: the carry is traced, so float() raises ConcretizationTypeError
# expect: line 14 — float() of a jnp.exp of the traced carry inside a scan body
# checked: ran, reproduces (ConcretizationTypeError)
import jax
import jax.numpy as jnp


def adapt_step(carry, accept_prob):
    log_step_size, avg = carry
    step_size = float(jnp.exp(log_step_size))
    log_step_size = log_step_size + 0.05 * (accept_prob - 0.8)
    return (log_step_size, 0.9 * avg + 0.1 * step_size), step_size


def warmup(accept_probs):
    (log_eps, avg), trace = jax.lax.scan(adapt_step, (jnp.float32(-2.0), jnp.float32(0.0)), accept_probs)
    return avg, trace


warmup(jnp.full(10, 0.7))
