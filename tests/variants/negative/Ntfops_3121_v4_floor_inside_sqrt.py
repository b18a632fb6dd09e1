# source: variant of 3121_keras_cos_merge_sqrt_then_maximum.py
# framework: tf
# kind: nan-grad-singular-point
# negative: the floor is applied inside the sqrt (ops.maximum(product, eps**2)), so the sqrt never sees 0
# mimics: positive/3121_v4_keras3_ops_layer_jax.py
# expect: no finding
# checked: ran with KERAS_BACKEND=jax (finite gradient for the zero vector)
import os

os.environ.setdefault("KERAS_BACKEND", "jax")
import jax
import jax.numpy as jnp
import keras
from keras import ops


class CosMerge(keras.layers.Layer):
    def call(self, inputs):
        l1, l2 = inputs
        eps = keras.config.epsilon()
        denominator = ops.sqrt(ops.maximum(ops.sum(l1 * l1, axis=-1) * ops.sum(l2 * l2, axis=-1), eps * eps))
        return ops.sum(l1 * l2, axis=-1) / denominator


merge = CosMerge()
b = jnp.array([[1.0, 2.0, 3.0]])
print(jax.grad(lambda a_: ops.sum(merge([a_, b])))(jnp.zeros((1, 3))))
