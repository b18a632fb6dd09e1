# source: variant of 2227_jax_fori_loop_rollout_not_differentiable.py
# framework: jax
# family: F
# kind: jax-while-loop-reverse-mode
# pitfall: under jax.jit the horizon is a traced argument, so lax.fori_loop lowers to a while_loop, and jax.grad through it raises (reverse mode needs static trip counts: static_argnums or lax.scan)
# expect: line 18 — lax.fori_loop with a traced trip count in a function differentiated with jax.grad
# checked: ran, reproduces (ValueError: Reverse-mode differentiation does not work for lax.while_loop or lax.fori_loop with dynamic start/stop values)
import jax
import jax.numpy as jnp


def simulate_cost(theta, x0, horizon):
    def body(t, carry):
        x, cost = carry
        x = jnp.tanh(theta @ x)
        return x, cost + jnp.sum(x ** 2)

    _, cost = jax.lax.fori_loop(0, horizon, body, (x0, 0.0))
    return cost


grad_fn = jax.jit(jax.grad(simulate_cost))
g = grad_fn(jnp.eye(2), jnp.ones(2), 5)
