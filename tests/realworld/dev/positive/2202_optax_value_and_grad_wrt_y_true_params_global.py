# source: https://github.com/google-deepmind/optax/issues/808
# framework: jax
# family: F
# kind: jax-params-closed-over
# pitfall: model() reads the global params instead of taking them as an argument, and value_and_grad differentiates loss with respect to its first argument y_true, so the "grads" have the shape of y_true and optimizer.update fails (TypeError: unsupported operand type(s) for *: 'float' and 'dict')
# expect: line 33 — value_and_grad of a loss whose parameters are a closed-over global; the gradient is taken with respect to y_true (answer: "You applied value_and_grad to y_true not to params")
# checked: parse-only (the thread's x is not shown; an x of shape (n, 3) reproduces the TypeError in optimizer.update)
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
def model(x):
    return x.dot(params['weights'])

def loss(y_true, x):
    y_pred = model(x)
    return np.mean((y_true - y_pred)**2)

print(loss(y_true,model(x)))

optimizer = optax.adam( learning_rate= 0.002 )
opt_state = optimizer.init(params)
loss_value, grads = jax.value_and_grad(loss, allow_int = True)( y_true, x)
updates, opt_state = optimizer.update(grads, opt_state)
params = optax.apply_updates(params, updates)
