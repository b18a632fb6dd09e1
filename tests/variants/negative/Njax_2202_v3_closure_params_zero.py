# source: variant of 2202_optax_value_and_grad_wrt_y_true_params_global.py
# framework: jax
# kind: jax-params-closed-over
# negative: the bug repaired (was: the closure loss_fn(p) ignores its argument p and uses the enclosing params, so jax.grad returns all-zero gradients and the model never trains)
# mimics: positive/2202_v3_closure_params_zero.py
# expect: no finding
# checked: ran, no error (fixed twin)
import jax
import jax.numpy as jnp
import optax

optimizer = optax.sgd(0.1)


def predict(params, x):
    return x @ params["w"] + params["b"]


@jax.jit
def train_step(params, opt_state, x, y):
    def loss_fn(p):
        pred = predict(p, x)
        return jnp.mean((pred - y) ** 2)

    loss, grads = jax.value_and_grad(loss_fn)(params)
    updates, opt_state = optimizer.update(grads, opt_state)
    return optax.apply_updates(params, updates), opt_state, loss


params = {"w": jnp.zeros(3), "b": jnp.float32(0.0)}
new_params, _, _ = train_step(params, optimizer.init(params), jnp.ones((8, 3)), jnp.ones(8))
print(new_params)
