# source: variant of 2235_blackjax_chees_float_of_traced_step_size.py
# framework: jax
# kind: jax-concretization
# negative: the bug repaired (was: the step size is converted with .item() of jnp.exp of the adaptation state inside a jitted function)
# mimics: positive/2235_v2_item_method_jit.py
# expect: no finding
# checked: ran, no error (fixed twin)
import jax
import jax.numpy as jnp


def apply_length_floor(trajectory_length, length_floor, step_size):
    floor = length_floor * step_size
    return jnp.maximum(trajectory_length, floor)


@jax.jit
def run(trajectory_length_ma, log_step_size_moving_average):
    step_size_ma = jnp.exp(log_step_size_moving_average)
    return apply_length_floor(trajectory_length_ma, 0.5, step_size_ma)


run(jnp.float32(1.0), jnp.float32(-2.0))
