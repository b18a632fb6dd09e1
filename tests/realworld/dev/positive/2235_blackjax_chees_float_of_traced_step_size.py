# source: https://github.com/blackjax-devs/blackjax/issues/1029
# framework: jax
# family: A
# kind: jax-concretization
# pitfall: the warmup converts the moving-average step size to a Python float (float(step_size_ma)) before passing it on; step_size_ma = jnp.exp(...) of the adaptation state is a tracer whenever run() is jitted, so float() raises ConcretizationTypeError and mass-matrix estimation cannot be used under jit
# expect: line 29 — float() of a traced array (jnp.exp of the adaptation state) inside the jitted warmup
# checked: ran, reproduces (ConcretizationTypeError at float()); the issue quotes the float(step_size_ma) call and the jnp.exp that produces it, the enclosing run() and _apply_length_floor are reduced stand-ins
import jax
import jax.numpy as jnp


def _apply_length_floor(trajectory_length, lambda_max, engaged, length_floor, max_leapfrog_steps, step_size):
    floor = jnp.where(engaged, length_floor * step_size, 0.0)
    clipped = jnp.minimum(jnp.maximum(trajectory_length, floor), max_leapfrog_steps * step_size)
    return clipped, clipped < floor


@jax.jit
def run(trajectory_length_ma, lambda_max, final_engaged, log_step_size_moving_average):
    _length_floor = 0.5
    max_leapfrog_steps = 1000
    step_size_ma = jnp.exp(log_step_size_moving_average)
    consumed_trajectory_length_ma, floor_clipped_by_cap = _apply_length_floor(
        trajectory_length_ma,
        lambda_max,
        final_engaged,
        _length_floor,
        max_leapfrog_steps,
        float(step_size_ma),          # <-- step_size_ma = jnp.exp(...), a tracer under jit
    )
    return consumed_trajectory_length_ma, floor_clipped_by_cap


run(jnp.float32(1.0), jnp.float32(2.0), jnp.bool_(True), jnp.float32(-2.0))
