# source: https://github.com/google/flax/issues/1566
# framework: jax
# family: F
# kind: jax-has-aux
# pitfall: jax.value_and_grad returns a (loss, grads) pair, but the pmapped step keeps the whole pair as `grad` and hands it to the optax updates, so the update tree is (Traced float32[], FrozenDict(...)) instead of the parameter tree (ValueError: Custom node type mismatch)
# expect: line 29 — the (value, grads) pair returned by jax.value_and_grad is used as the gradient tree
# checked: parse-only; the step method is the thread's, the surrounding class (loss, optimizers per branch) is a reduced stand-in and the end of update_fn is cut off in the thread
import jax
import optax
from optax import GradientTransformation


class Trainer:
    def __init__(self, model, opts):
        self.model = model
        self.opts = opts

    def loss(self, params, batch):
        logits = self.model.apply(params, batch["x"])
        return optax.softmax_cross_entropy_with_integer_labels(logits, batch["y"]).mean()

    def step(self, batch, params, states):
        """
        Compute gradients, loss, accuracy per batch
        """
        step = states[0].count
        # TODO: correctly get step from the state
        grad_fn = jax.value_and_grad(self.loss, has_aux=False)
        grad = grad_fn(params, batch)
        print("grad is ", grad)
        grad = jax.lax.pmean(grad, axis_name="batch")

        def update_fn(_opt, _grads, _state, _params):
            _update, _state = _opt.update(_grads, _state, _params)
            print("update_fn and state", _update[0], _state)
            if isinstance(_opt, GradientTransformation):
                return optax.apply_updates(_params, _update), _state
            return _params, _state

        new_states = []
        for _opt, _state in zip(self.opts, states):
            params, _state = update_fn(_opt, grad, _state, params)
            new_states.append(_state)
        return params, new_states
