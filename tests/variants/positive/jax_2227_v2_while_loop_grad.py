# source: variant of 2227_jax_fori_loop_rollout_not_differentiable.py
# framework: jax
# family: F
# kind: jax-while-loop-reverse-mode
# pitfall: the rollout is written with lax.while_loop, which reverse-mode AD cannot differentiate; jax.grad of the rollout cost raises (use lax.scan or a fori_loop with static bounds)
# expect: line 25 — lax.while_loop in a function differentiated with jax.grad
# checked: ran, reproduces (ValueError: Reverse-mode differentiation does not work for lax.while_loop or lax.fori_loop with dynamic start/stop values)
import jax
import jax.numpy as jnp
from jax import lax


def rollout_cost(x, us, A, B):
    N = us.shape[0]

    def cond(carry):
        t, _, _ = carry
        return t < N

    def body(carry):
        t, last_x, cost = carry
        next_x = A @ last_x + B @ us[t]
        return t + 1, next_x, cost + jnp.sum(next_x ** 2)

    _, _, cost = lax.while_loop(cond, body, (0, x, 0.0))
    return cost


A = jnp.array([[0.7, 0.5], [0.5, 0.8]])
B = jnp.array([[0.4, 1.2], [0.1, 0.3]])
g = jax.grad(rollout_cost, argnums=(0, 1))(jnp.ones(2), jnp.ones((10, 2)), A, B)
