# source: variant of 2227_jax_fori_loop_rollout_not_differentiable.py
# framework: jax
# kind: jax-while-loop-reverse-mode
# negative: the bug repaired (was: the rollout's lax.fori_loop result is discarded (JAX is functional), so outs stays zeros and jax.grad of the cost is all zeros)
# mimics: positive/2227_v1_fori_at_set_discarded.py
# expect: no finding
# checked: ran, no error (fixed twin)
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

    outs, _ = lax.fori_loop(0, N, step, (outs, x))
    return jnp.sum(jnp.square(outs))


A = jnp.array([[0.7, 0.5], [0.5, 0.8]])
B = jnp.array([[0.4, 1.2], [0.1, 0.3]])
print(jax.grad(rollout, argnums=(0, 1))(jnp.ones(2), jnp.ones((10, 2)), A, B))
