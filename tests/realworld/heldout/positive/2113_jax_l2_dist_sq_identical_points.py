# source: https://github.com/jax-ml/jax/issues/6484
# framework: jax
# family: E
# kind: nan-grad-singular-point
# pitfall: the squared distance between two identical points is computed through jnp.linalg.norm(x - y) ** 2, so its gradient at x == y is nan
# expect: line 14 — norm of a difference that is zero, differentiated
# checked: ran, reproduces (gradient [nan nan nan])
import jax
import jax.numpy as jnp

x = jnp.array([1., 2., 3.])
jax.grad(jnp.linalg.norm)(x - x) #[nan nan nan]

l2_dist_sq = lambda x, y: jnp.linalg.norm(x - y) ** 2
jax.grad(l2_dist_sq)(x, x) #[nan nan nan]
