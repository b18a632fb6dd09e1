# source: variant of 2015_keras_round_output_layer.py
# framework: tf
# family: E
# kind: nondiff-op-on-loss-path
# pitfall: a custom output layer quantizes in a helper method called from call() (tf.round of the scaled input); rounding has no gradient, so fit() finds no gradient for any variable
# expect: line 18 — tf.round in the helper the output layer's call() returns through
# checked: ran, reproduces (ValueError: No gradients provided for any variable)
import numpy as np
import tensorflow as tf


class Quantize(tf.keras.layers.Layer):
    def __init__(self, step=0.5, **kwargs):
        super().__init__(**kwargs)
        self.step = step

    def _quantize(self, x):
        return tf.round(x / self.step) * self.step

    def call(self, inputs):
        return self._quantize(inputs)


model = tf.keras.Sequential([
    tf.keras.Input((10,)),
    tf.keras.layers.Dense(20, activation="relu"),
    tf.keras.layers.Dense(3),
    Quantize(),
])
model.compile(loss="mae", optimizer="adam")
model.fit(np.random.rand(16, 10), np.random.rand(16, 3).astype("float32"), verbose=0)
