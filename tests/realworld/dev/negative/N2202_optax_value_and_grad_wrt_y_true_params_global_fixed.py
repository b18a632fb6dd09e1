# source: https://github.com/google-deepmind/optax/issues/808
# framework: jax
# kind: jax-params-closed-over
# negative: the fix the answer describes — the model and the loss take params as their first argument and value_and_grad differentiates with respect to it
# mimics: positive/2202_optax_value_and_grad_wrt_y_true_params_global.py
# expect: no finding
# checked: ran, trains without error
import jax
import jax.numpy as jnp
import numpy as np
import optax

x = np.random.rand(16, 3).astype(np.float32)


def f(x):
    return 5*x -10
y_true = f(x)
params = {
    'weights': jnp.ones((3,3))
}
def model(params, x):
    return jnp.dot(x, params['weights'])

def loss(params, y_true, x):
    y_pred = model(params, x)
    return jnp.mean((y_true - y_pred)**2)

optimizer = optax.adam( learning_rate= 0.002 )
opt_state = optimizer.init(params)
loss_value, grads = jax.value_and_grad(loss)(params, y_true, x)
updates, opt_state = optimizer.update(grads, opt_state)
params = optax.apply_updates(params, updates)
