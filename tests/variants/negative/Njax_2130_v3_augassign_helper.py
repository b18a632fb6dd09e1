# source: variant of 2130_jax_jit_warp_boxes_item_assignment.py
# framework: jax
# kind: jax-inplace-update
# negative: the bug repaired (was: a helper clips box coordinates with augmented item assignment (boxes[:, 0] -= ...) on a jax array; JAX arrays are immutable)
# mimics: positive/2130_v3_augassign_helper.py
# expect: no finding
# checked: ran, no error (fixed twin)
import jax
import jax.numpy as jnp


def shift_boxes(boxes, dx):
    boxes = jnp.asarray(boxes)
    boxes = boxes.at[:, 0].add(-dx)
    boxes = boxes.at[:, 2].add(-dx)
    return boxes


@jax.jit
def augment(boxes, dx):
    return shift_boxes(boxes, dx)


augment(jnp.ones((3, 4)), 0.5)
