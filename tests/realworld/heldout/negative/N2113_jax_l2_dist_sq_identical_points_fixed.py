# source: https://github.com/jax-ml/jax/issues/6484
# framework: jax
# kind: nan-grad-singular-point
# negative: the accepted fix — the squared distance as (x - y).dot(x - y)
# mimics: positive/2113_jax_l2_dist_sq_identical_points.py
# expect: no finding
# checked: ran, no error
import jax
import jax.numpy as jnp

x = jnp.array([1., 2., 3.])

oracle_l2_dist_sq = lambda x, y: (x - y).dot(x - y)
jax.grad(oracle_l2_dist_sq)(x, x) #[0 0 0]
