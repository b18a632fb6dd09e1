# source: variant of 2131_flax_linear_np_asarray_in_call.py
# framework: jax
# kind: jax-tracer-conversion
# negative: the bug repaired (was: an @nn.compact __call__ converts its input with NumPy's np.array; under jax.jit(model.apply) the input is a tracer)
# mimics: positive/2131_v1_compact_np_array.py
# expect: no finding
# checked: ran, no error (fixed twin)
import numpy as np
import jax
import jax.numpy as jnp
import flax.linen as nn


class MLP(nn.Module):
    features: int = 4

    @nn.compact
    def __call__(self, x):
        x = jnp.asarray(x, dtype=jnp.float32)
        x = nn.Dense(self.features)(x)
        return nn.relu(x)


model = MLP()
x = jnp.ones((2, 3))
variables = model.init(jax.random.PRNGKey(0), x)
out = jax.jit(model.apply)(variables, x)
