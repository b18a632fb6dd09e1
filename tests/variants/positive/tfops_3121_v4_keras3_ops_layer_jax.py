# source: variant of 3121_keras_cos_merge_sqrt_then_maximum.py
# framework: tf
# family: E
# kind: nan-grad-singular-point
# pitfall: a backend-agnostic Keras 3 cosine layer takes ops.sqrt of the product of squared norms and only then clamps it with ops.maximum(denominator, epsilon); the clamp protects the forward division but not the backward pass, so a zero vector gives a NaN gradient through the sqrt (on the JAX backend; TF's SqrtGrad happens to return 0 for a zero cotangent)
# expect: line 20 — ops.sqrt(...) of the squared norms with the guard applied after the sqrt
# checked: ran with KERAS_BACKEND=jax, reproduces (gradient w.r.t. the zero vector is [nan nan nan]); with the TF backend the same code gives a finite 1e7 gradient
import os

os.environ.setdefault("KERAS_BACKEND", "jax")
import jax
import jax.numpy as jnp
import keras
from keras import ops


class CosMerge(keras.layers.Layer):
    def call(self, inputs):
        l1, l2 = inputs
        denominator = ops.sqrt(ops.sum(l1 * l1, axis=-1) * ops.sum(l2 * l2, axis=-1))
        denominator = ops.maximum(denominator, keras.config.epsilon())
        return ops.sum(l1 * l2, axis=-1) / denominator


merge = CosMerge()
a = jnp.zeros((1, 3))
b = jnp.array([[1.0, 2.0, 3.0]])
print(jax.grad(lambda a_: ops.sum(merge([a_, b])))(a))  # [[nan nan nan]]
