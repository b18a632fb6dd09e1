# source: https://github.com/patrick-kidger/equinox/issues/105
# framework: jax
# family: F
# kind: eqx-optax-unfiltered-model
# pitfall: optim.init(model) is given the whole Equinox module, whose layer list holds jax.nn.relu and jnp.ravel; optax tries to build zeros_like state for those functions and fails
# expect: line 45 — the optimizer state is initialised on the unfiltered model (functions among its leaves) instead of eqx.filter(model, eqx.is_array)
# checked: ran a reduced model (Conv2d, relu, ravel, Linear), reproduces (TypeError: zeros_like requires ndarray or scalar arguments, got custom_jvp); the verbatim file now stops earlier because eqx.nn.MaxPool2D was renamed MaxPool2d
import jax
import jax.numpy as jnp
import equinox as eqx
import optax

seed = 0
lr = 1e-3


class Net(eqx.Module):
    layers: list

    def __init__(self, key):
        keys = jax.random.split(key, 4)
        self.layers = [
            eqx.nn.Conv2d(1, 32, 3, 1, key=keys[0]),
            jax.nn.relu, # fails here
            eqx.nn.Conv2d(32, 64, 3, 1, key=keys[1]),
            jax.nn.relu,
            eqx.nn.MaxPool2D(2, 1),
            eqx.nn.Dropout(0.25),
            jnp.ravel,
            eqx.nn.Linear(9216, 128, key=keys[2]),
            jax.nn.relu,
            eqx.nn.Dropout(0.5),
            eqx.nn.Linear(128, 10, key=keys[3])
        ]

    def __call__(self, x):
        for layer in self.layers[:-1]:
            x = layer(x)
        output = jax.nn.log_softmax(x, axis=1)
        return output


model = Net(jax.random.PRNGKey(seed))
optim = optax.adam(lr)
opt_state = optim.init(model) # error at this line
