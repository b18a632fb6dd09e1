# source: variant of 2015_keras_round_output_layer.py
# framework: tf
# family: E
# kind: nondiff-op-on-loss-path
# pitfall: a custom output layer makes the prediction integral by casting to int32 and back to float; the cast to an integer type has no gradient, so fit() finds no gradient for any variable
# expect: line 15 — tf.cast(inputs, tf.int32) in the output layer's call()
# checked: ran, reproduces (ValueError: No gradients provided for any variable)
import numpy as np
import tensorflow as tf
from tensorflow import keras


class ToInteger(keras.layers.Layer):
    def call(self, inputs):
        as_int = tf.cast(inputs, tf.int32)
        return tf.cast(as_int, tf.float32)


inp = keras.Input(shape=(10,))
h = keras.layers.Dense(20, activation="relu")(inp)
out = ToInteger()(keras.layers.Dense(3)(h))
model = keras.Model(inp, out)
model.compile(loss="mae", optimizer="adam")
model.fit(np.random.rand(16, 10), np.random.randint(0, 5, (16, 3)).astype("float32"), verbose=0)
