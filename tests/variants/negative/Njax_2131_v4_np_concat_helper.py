# source: variant of 2131_flax_linear_np_asarray_in_call.py
# framework: jax
# kind: jax-tracer-conversion
# negative: the bug repaired (was: a helper builds features with np.concatenate on traced arrays; it is called from a flax Module __call__ applied under jax.jit)
# mimics: positive/2131_v4_np_concat_helper.py
# expect: no finding
# checked: ran, no error (fixed twin)
import numpy as np
import jax
import jax.numpy as jnp
import flax.linen as nn


def fourier_features(x):
    return jnp.concatenate([jnp.sin(x), jnp.cos(x)], axis=-1)


class FourierMLP(nn.Module):
    @nn.compact
    def __call__(self, x):
        h = fourier_features(x)
        return nn.Dense(1)(h)


model = FourierMLP()
x = jnp.ones((2, 3))
params = model.init(jax.random.PRNGKey(0), x)
jax.jit(model.apply)(params, x)
