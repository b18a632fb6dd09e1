# source: https://github.com/jax-ml/jax/issues/5310
# framework: jax
# family: E
# kind: gradcheck-float32
# pitfall: check_grads compares the eigvalsh gradient of a 200x200 matrix with entries up to 40 (eigenvalues around -160) against finite differences, all in JAX's default float32; rounding error in the eigen-solve and the finite differences swamps the tolerance, so the reporter sees check_grads 'always fail' although the gradient is right
# expect: line 35 — finite-difference gradient check (check_grads) run in float32 on a large, badly scaled eigenvalue problem
# checked: ran on jax 0.10.2: check_grads now passes with a fixed seed both in float32 and x64 (the thread's failures were on jax 0.2.7 float32); kept for the float32 gradient-check pattern
import jax.numpy as jnp
from jax import grad, jit, vmap
import numpy as np

from scipy.linalg import eigvalsh

a=np.random.rand(200,200)*10
b=np.random.rand(200,200)*10


def f(x,a,b):
    c=a*x+b
    c = c + c.T
    print(eigvalsh(c)[:5])
    print(jnp.linalg.eigvalsh(c)[:5])


f(1.,a,b)


def g(x,a,b):
    c=a*x+b
    c = c + c.T
    return jnp.linalg.eigvalsh(c)[0]


from jax.test_util import check_grads
check_grads(g, (1.,a,b), order=1)
