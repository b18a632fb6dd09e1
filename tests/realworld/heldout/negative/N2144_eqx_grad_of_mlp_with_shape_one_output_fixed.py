# source: https://github.com/patrick-kidger/equinox/issues/213
# framework: jax
# kind: backward-nonscalar
# negative: the reporter's working version from the thread — reshape the (1,) output to a scalar before jax.grad (vmapped over a batch of points)
# mimics: positive/2144_eqx_grad_of_mlp_with_shape_one_output.py
# expect: no finding
# checked: ran, no error (gradient shape (3, 2))
import jax
import jax.numpy as jp
from equinox import nn

rng=jax.random.PRNGKey(128)
mlp = nn.MLP(in_size=2,out_size=1,width_size=80,depth=3,key=rng)

def mlp_hack(x):
  out = mlp(x)
  return jp.reshape(out,())

point = jax.random.uniform(rng,(3,2))
jax.vmap(jax.grad(mlp_hack))(point)
