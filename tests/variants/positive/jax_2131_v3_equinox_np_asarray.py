# source: variant of 2131_flax_linear_np_asarray_in_call.py
# framework: jax
# family: A
# kind: jax-tracer-conversion
# pitfall: an Equinox module's __call__ converts the input with np.asarray; under eqx.filter_jit / jax.grad the input is a tracer
# expect: line 21 — np.asarray on the traced input inside an equinox Module's __call__
# checked: ran, reproduces (TracerArrayConversionError)
import numpy as np
import jax
import jax.numpy as jnp
import equinox as eqx


class Linear(eqx.Module):
    linear: eqx.nn.Linear

    def __init__(self, in_size, out_size, key):
        self.linear = eqx.nn.Linear(in_size, out_size, key=key)

    def __call__(self, x):
        x = np.asarray(x)
        return self.linear(x)


@eqx.filter_jit
def loss(model, x, y):
    pred = jax.vmap(model)(x)
    return jnp.mean((pred - y) ** 2)


model = Linear(3, 1, jax.random.PRNGKey(0))
grads = eqx.filter_grad(loss)(model, jnp.ones((4, 3)), jnp.zeros((4, 1)))
