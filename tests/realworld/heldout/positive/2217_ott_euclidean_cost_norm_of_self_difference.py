# source: https://github.com/ott-jax/ott/pull/411
# framework: jax
# family: E
# kind: nan-grad-singular-point
# pitfall: the Euclidean cost differentiates jnp.linalg.norm(x - y) where a point is compared with itself (the diagonal of a symmetric cost matrix, norm(x - x)); the norm's gradient (x - y) / norm is 0/0, so the gradient of the Sinkhorn divergence is NaN
# expect: line 11 — jnp.linalg.norm of a difference that is exactly zero (a point against itself), differentiated by jax.grad
# checked: ran, reproduces ([nan nan nan]), the PR's own demonstration
import jax
import jax.numpy as jnp

g = lambda x: jnp.linalg.norm(x - x)
x = jnp.array([1.2, 3.2, 4.1])
print(jax.grad(g)(x))
