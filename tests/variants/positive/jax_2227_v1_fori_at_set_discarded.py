# source: variant of 2227_jax_fori_loop_rollout_not_differentiable.py
# framework: jax
# family: F
# kind: jax-while-loop-reverse-mode
# pitfall: the rollout's lax.fori_loop result is discarded (JAX is functional), so outs stays zeros and jax.grad of the cost is all zeros
# expect: line 22 — lax.fori_loop whose result is not assigned, in a function differentiated with jax.grad
# checked: ran, reproduces (the cost is 0 and the gradient with respect to x and us is all zeros)
import jax
import jax.numpy as jnp
from jax import lax


def rollout(x, us, A, B):
    N = us.shape[0]
    outs = jnp.zeros((N, x.shape[0]))

    def step(t, carry):
        outs, last_x = carry
        next_x = A @ last_x + B @ us[t]
        return outs.at[t].set(next_x), next_x

    lax.fori_loop(0, N, step, (outs, x))
    return jnp.sum(jnp.square(outs))


A = jnp.array([[0.7, 0.5], [0.5, 0.8]])
B = jnp.array([[0.4, 1.2], [0.1, 0.3]])
print(jax.grad(rollout, argnums=(0, 1))(jnp.ones(2), jnp.ones((10, 2)), A, B))
