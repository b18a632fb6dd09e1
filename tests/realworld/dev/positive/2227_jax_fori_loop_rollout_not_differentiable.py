# source: https://github.com/jax-ml/jax/issues/1954
# framework: jax
# family: F
# kind: jax-while-loop-reverse-mode
# pitfall: the linear-dynamics rollout is written with lax.fori_loop, which lowers to a while_loop that reverse-mode AD cannot differentiate (grad fails: no differentiation rule for 'while'); its result is also discarded, so outs stays zeros; the commenter's fix is lax.scan, which is differentiable
# expect: line 26 — lax.fori_loop in a function differentiated with jax.grad (reverse mode through a while loop); the loop's result is not even assigned
# checked: parse-only (jax.ops.index_update, removed from current jax); on the thread's jax, grad raised for the while primitive
from jax.lax import fori_loop, scan
from jax.ops import index_update
from jax import jit
from time import time
import jax.numpy as np
import jax

def test_fori():

    def rollout(x, us, A, B):
        N = len(us)
        outs = np.zeros((len(us), len(x)))
        def step(t, carry):
            outs, last_x = carry
            u = us[t]
            next_x = A @ last_x + B @ u
            outs = index_update(outs, t, next_x)
            return outs, next_x
        fori_loop(0, N, step, (outs, x))
        return np.sum(np.square(outs))

    A = np.array([[7., 0.5], [0.5, 0.8]])
    B = np.array([[0.4, 1.2]])
    x = np.ones(2)
    us = np.ones((10, 2))
    out = rollout(x, us, A, B)

    grad = jax.grad(rollout, argnums=(0, 1)) # NotImplementedError: Forward-mode differentiation rule for 'while' not implemented
    gout = grad(x, us, A, B)
    print(gout)

test_fori()
