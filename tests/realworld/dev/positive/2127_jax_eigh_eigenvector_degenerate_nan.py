# source: https://github.com/jax-ml/jax/issues/4646
# framework: jax
# family: E
# kind: nan-grad-singular-point
# pitfall: the derivative of an eigenvector from jnp.linalg.eigh divides by eigenvalue differences; M has a repeated eigenvalue (1, 1), so every entry of the gradient is nan, even for the non-degenerate eigenvector
# expect: line 12 — eigenvectors of a matrix with repeated eigenvalues are differentiated
# checked: ran, reproduces (all-nan gradient)
import jax.numpy as jnp
from jax import grad

def eigh(M, i, j):
    return jnp.linalg.eigh(M)[1][i, j]

deigh = grad(eigh, argnums=0)

M = jnp.array([
    [4., 0., 0.],
    [0., 1., 0.],
    [0., 0., 1.],
], dtype=jnp.float32)

V = jnp.array([[eigh(M, i, j) for j in range(3)] for i in range(3)])
dV = jnp.array([[deigh(M, i, j) for j in range(3)] for i in range(3)])

print(V)
print(dV)
