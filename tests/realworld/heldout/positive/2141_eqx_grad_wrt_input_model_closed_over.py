# source: https://github.com/patrick-kidger/equinox/issues/458
# framework: jax
# family: B
# kind: jax-params-closed-over
# pitfall: the loss reads the global model and takes only x, so jax.grad(loss)(x) differentiates with respect to the input, not the model's parameters; the 'gradients' are an array shaped like x and optax fails when it combines them with a state built for the Linear layer
# expect: line 20 — jax.grad is applied to a loss whose only argument is the input; the model's parameters are captured from the enclosing scope and never differentiated
# checked: ran, reproduces (TypeError: unsupported operand type(s) for *: 'float' and 'Linear')
import equinox as eqx
import jax
import optax
import jax.numpy as jnp

model = eqx.nn.Linear(1, 1, key=jax.random.PRNGKey(1))

optim = optax.adam(learning_rate=0.1)
optim_state = optim.init(eqx.filter(model, eqx.is_array))
def loss(x):
    return jnp.mean(model(x))

grads = jax.grad(loss)(jnp.zeros((1)))

updates, opt_state = optim.update(updates=grads, state=optim_state)
