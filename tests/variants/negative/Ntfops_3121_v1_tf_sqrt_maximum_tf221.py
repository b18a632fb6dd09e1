# source: variant of 3121_keras_cos_merge_sqrt_then_maximum.py
# framework: tf
# kind: nan-grad-singular-point
# negative: TensorFlow-only cosine layer, tf.sqrt then tf.maximum: on TF 2.21 SqrtGrad returns 0 for a zero incoming gradient, so the zero vector gives a finite (if large) gradient, no NaN
# mimics: positive/3121_v4_keras3_ops_layer_jax.py
# expect: no finding
# checked: ran (TF 2.21: gradients [[1e7 2e7 3e7]] and [[0 0 0]], finite)
import tensorflow as tf
from tensorflow import keras


class CosineSimilarity(keras.layers.Layer):
    def call(self, inputs):
        a, b = inputs
        denominator = tf.sqrt(tf.reduce_sum(a * a, axis=-1) * tf.reduce_sum(b * b, axis=-1))
        denominator = tf.maximum(denominator, 1e-7)
        return tf.reduce_sum(a * b, axis=-1) / denominator


a = tf.Variable([[0.0, 0.0, 0.0]])
b = tf.Variable([[1.0, 2.0, 3.0]])
with tf.GradientTape() as tape:
    out = tf.reduce_sum(CosineSimilarity()([a, b]))
print(tape.gradient(out, [a, b]))
