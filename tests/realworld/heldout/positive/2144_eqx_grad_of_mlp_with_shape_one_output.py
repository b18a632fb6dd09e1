# source: https://github.com/patrick-kidger/equinox/issues/213
# framework: jax
# family: F
# kind: backward-nonscalar
# pitfall: jax.grad is applied directly to an Equinox MLP with out_size=1, whose output has shape (1,), not (); grad only differentiates scalar-output functions and raises
# expect: line 15 — jax.grad of a function (the MLP) whose output has shape (1,) rather than a scalar
# checked: ran, reproduces (TypeError: Gradient only defined for scalar-output functions. Output had shape: (1,))
import jax
from equinox import nn

rng = jax.random.PRNGKey(128)
mlp = nn.MLP(in_size=2,out_size=1,width_size=80,depth=3,key=rng)
point = jax.random.uniform(rng,(2,))
print(mlp(point))
jax.grad(mlp)(point) #error: Gradient only defined for scalar-output functions. Output had shape: (1,).
