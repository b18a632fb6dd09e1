# source: variant of 3022_tf_function_sqrt_of_square.py
# framework: tf
# family: E
# kind: nan-grad-singular-point
# pitfall: a custom Keras layer returns the per-row L2 norm with tf.norm(x, axis=-1); its gradient x/||x|| is NaN for an all-zero row (e.g. a ReLU feature vector that died), so training gets NaN gradients
# expect: line 14 — tf.norm(inputs, axis=-1) of a row that can be all zero
# checked: ran, reproduces (gradient w.r.t. the input is NaN for the zero row)
import tensorflow as tf
from tensorflow import keras


class RowNorm(keras.layers.Layer):
    def call(self, inputs):
        return tf.norm(inputs, axis=-1)


x = tf.Variable([[3.0, 4.0], [0.0, 0.0]])
with tf.GradientTape() as tape:
    loss = tf.reduce_sum(RowNorm()(x))
print(tape.gradient(loss, x))  # second row nan
