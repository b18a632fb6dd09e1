# source: variant of 2130_jax_jit_warp_boxes_item_assignment.py
# framework: jax
# family: F
# kind: jax-inplace-update
# pitfall: a helper clips box coordinates with augmented item assignment (boxes[:, 0] -= ...) on a jax array; JAX arrays are immutable
# expect: line 14 — in-place augmented item assignment into a jax.numpy array
# checked: ran, reproduces (TypeError: JAX arrays are immutable and do not support in-place item assignment)
import jax
import jax.numpy as jnp


def shift_boxes(boxes, dx):
    boxes = jnp.asarray(boxes)
    boxes[:, 0] -= dx
    boxes[:, 2] -= dx
    return boxes


@jax.jit
def augment(boxes, dx):
    return shift_boxes(boxes, dx)


augment(jnp.ones((3, 4)), 0.5)
