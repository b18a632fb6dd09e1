# source: https://github.com/patrick-kidger/equinox/issues/590
# framework: jax
# kind: eqx-optax-unfiltered-model
# negative: the accepted fix — pass eqx.filter(model, eqx.is_array) as the params argument of optim.update, as for optim.init
# mimics: positive/2142_eqx_multisteps_update_with_unfiltered_model.py
# expect: no finding
# checked: ran, no error
import jax
import jax.numpy as jnp
import optax
import equinox as eqx

key = jax.random.PRNGKey(0xff)
model = eqx.nn.MLP(2, 2, 2, 2, key=key)

def dummy_loss(model, x):
    return jax.vmap(model)(x).mean()

optim = optax.adamw(1e-2)
optim = optax.MultiSteps(optim, 2)

opt_state = optim.init(eqx.filter(model, eqx.is_array))

@eqx.filter_jit
def train_step(model, opt_state, x):
    grad = eqx.filter_grad(dummy_loss)(model, x)
    updates, opt_state = optim.update(grad, opt_state, eqx.filter(model, eqx.is_array))
    model = eqx.apply_updates(model, updates)

    return model, opt_state

x = jnp.zeros((4, 2))

train_step(model, opt_state, x)
