# source: https://github.com/jax-ml/jax/issues/2097
# framework: jax
# family: A
# kind: loss-not-using-prediction
# pitfall: the cross-entropy is written with the labels y in both places instead of the prediction p, so the loss does not depend on params, the gradient is zero and Adam never changes the weights
# expect: line 29 — the loss uses y where the prediction p belongs, so it is constant in params
# checked: ran with random data, reproduces (every gradient leaf is exactly zero)
import jax.numpy as np
from jax import grad, jit, random
from jax.example_libraries import optimizers, stax
from jax.example_libraries.stax import Dense, Relu, Sigmoid

learning_rate = 0.01
n_features = 2
n_nodes = 4
n_samples = 1000

init_fun, apply_fun = stax.serial(
    Dense(n_nodes), Relu, Dense(n_nodes), Relu, Dense(1), Sigmoid
)
out_shape, params = init_fun(random.PRNGKey(2), (n_samples, n_features))

opt_init, opt_update, get_params = optimizers.adam(step_size=learning_rate)
opt_state = opt_init(params)


def loss(params, x, y):
    p = apply_fun(params, x)
    ce_loss = -np.sum(y * np.log(y) + (1 - y) * np.log(1 - y))
    return ce_loss


# Define a compiled update step
@jit
def step(i, opt_state, x, y):
    params = get_params(opt_state)
    g = grad(loss)(params, x, y)
    return opt_update(i, g, opt_state)
