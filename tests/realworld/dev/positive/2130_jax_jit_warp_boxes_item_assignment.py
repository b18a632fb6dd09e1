# source: https://github.com/jax-ml/jax/issues/7032
# framework: jax
# family: F
# kind: jax-inplace-update
# pitfall: the bounding-box warp fills and clips slices of a jnp array with NumPy-style item assignment (xy[:, ...] = ...); JAX arrays are immutable, so the jitted function raises instead of returning
# expect: line 24 — in-place slice assignment into a jax.numpy array (the answer quotes this statement; the same pattern two lines earlier and one line later)
# checked: ran, reproduces (TypeError: JAX arrays are immutable and do not support in-place item assignment)
import jax
import jax.numpy as jnp


def jx_warp(boxes,M,width,height):
    n = len(boxes)
    if n:
        xy = jnp.ones((n * 4, 3))
        xy[:, :2] = boxes[:, [0, 1, 2, 3, 0, 3, 2, 1]].reshape(
            n * 4, 2)
        xy = xy @ M.T
        xy = (xy[:, :2] / xy[:, 2:3]).reshape(n, 8)
        x = xy[:, [0, 2, 4, 6]]
        y = xy[:, [1, 3, 5, 7]]
        xy = jnp.concatenate(
            (x.min(1), y.min(1), x.max(1), y.max(1))).reshape(4, n).T
        xy[:, [0, 2]] = xy[:, [0, 2]].clip(0, width)
        xy[:, [1, 3]] = xy[:, [1, 3]].clip(0, height)
        return xy.astype(jnp.float32)
    else:
        return boxes


warped = jax.jit(jx_warp)(jnp.ones((2, 4)), jnp.eye(3), 640, 480)
