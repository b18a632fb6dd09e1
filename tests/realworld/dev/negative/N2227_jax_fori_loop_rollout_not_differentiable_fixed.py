# source: https://github.com/jax-ml/jax/issues/1954
# framework: jax
# kind: jax-while-loop-reverse-mode
# negative: the commenter's working version — the rollout written with lax.scan, which reverse-mode AD differentiates
# mimics: positive/2227_jax_fori_loop_rollout_not_differentiable.py
# expect: no finding
# checked: ran, gradient computed
from jax.lax import scan
import jax.numpy as np
import jax

def test_scan():
    def rollout(x, us, A, B):
        def step(carry, u):
            # system dyamics
            next_x = A @ carry + B @ u
            carry = next_x
            return carry, next_x
        _, outs = scan(step, x, us)
        return np.square(outs).sum()

    A = np.array([[7., 0.5], [0.5, 0.8]])
    B = np.array([[0.4, 1.2]])
    x = np.ones(2)
    us = np.ones((10, 2))

    grad = jax.grad(rollout, argnums=(0, 1))
    gout = grad(x, us, A, B)
    print(gout)

test_scan()
