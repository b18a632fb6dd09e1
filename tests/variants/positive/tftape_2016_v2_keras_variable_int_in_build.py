# source: variant of 2016_keras_int32_trainable_variable.py
# framework: tf
# family: B
# kind: int-dtype-parameter
# pitfall: the layer creates its trainable weight as a keras.Variable with dtype "int64" in build(); integer variables are not differentiable, so the custom training loop gets None for it
# expect: line 15 — keras.Variable(..., dtype="int64", trainable=True) creates a trainable weight that can never receive a gradient
# checked: ran, reproduces (ValueError: No gradients provided for any variable)
import numpy as np
import tensorflow as tf
import keras


class Offset(keras.layers.Layer):
    def build(self, input_shape):
        self.b = keras.Variable(np.zeros(input_shape[-1:]), dtype="int64", trainable=True, name="b")

    def call(self, x):
        return x + self.b


layer = Offset()
opt = keras.optimizers.SGD(0.1)
x = tf.constant([[1, 2], [3, 4]], dtype=tf.int64)
layer(x)
with tf.GradientTape() as tape:
    loss = tf.reduce_sum(tf.cast(layer(x), tf.float32))
grads = tape.gradient(loss, layer.trainable_variables)
opt.apply_gradients(zip(grads, layer.trainable_variables))
