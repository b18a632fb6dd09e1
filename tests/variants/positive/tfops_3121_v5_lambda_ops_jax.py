# source: variant of 3121_keras_cos_merge_sqrt_then_maximum.py
# framework: tf
# family: E
# kind: nan-grad-singular-point
# pitfall: a cosine-merge function in a Keras 3 Lambda layer computes ops.sqrt(sum(l1^2) * sum(l2^2)) and only then clamps with ops.maximum(..., epsilon); a zero vector gives a NaN gradient through the sqrt (JAX backend)
# expect: line 19 — ops.sqrt of the product of squared norms with the guard applied after it
# checked: ran with KERAS_BACKEND=jax, reproduces (gradient w.r.t. the zero vector is NaN)
import os

os.environ["KERAS_BACKEND"] = "jax"
import jax
import jax.numpy as jnp
import keras
from keras import ops


def cos_merge(tensors):
    l1, l2 = tensors
    denominator = ops.sqrt(ops.sum(ops.square(l1), axis=-1, keepdims=True) *
                           ops.sum(ops.square(l2), axis=-1, keepdims=True))
    denominator = ops.maximum(denominator, keras.config.epsilon())
    return ops.sum(l1 * l2, axis=-1, keepdims=True) / denominator


merge = keras.layers.Lambda(cos_merge)
b = jnp.array([[1.0, 2.0, 3.0]])
print(jax.grad(lambda a: ops.sum(merge([a, b])))(jnp.zeros((1, 3))))  # nan
