# source: variant of 2227_jax_fori_loop_rollout_not_differentiable.py
# framework: jax
# kind: jax-while-loop-reverse-mode
# negative: the bug repaired (was: under jax.jit the horizon is a traced argument, so lax.fori_loop lowers to a while_loop, and jax.grad through it raises (reverse mode needs static trip counts: static_argnums or lax.scan))
# mimics: positive/2227_v3_fori_traced_bound.py
# expect: no finding
# checked: ran, no error (fixed twin)
import jax
import jax.numpy as jnp


def simulate_cost(theta, x0, horizon):
    def body(t, carry):
        x, cost = carry
        x = jnp.tanh(theta @ x)
        return x, cost + jnp.sum(x ** 2)

    _, cost = jax.lax.fori_loop(0, horizon, body, (x0, 0.0))
    return cost


grad_fn = jax.jit(jax.grad(simulate_cost), static_argnums=2)
g = grad_fn(jnp.eye(2), jnp.ones(2), 5)
