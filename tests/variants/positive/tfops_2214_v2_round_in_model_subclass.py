# source: variant of 2214_keras_round_output_layer_xor.py
# framework: tf
# family: E
# kind: nondiff-op-on-loss-path
# pitfall: a subclassed XOR model rounds its output inside call() (tf.math.round) so predictions are integers; rounding has no gradient, so fit() finds no gradient for any variable
# expect: line 19 — tf.math.round on the model output in call()
# checked: ran, reproduces (ValueError: No gradients provided for any variable)
import numpy as np
import tensorflow as tf


class XorNet(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.hidden = tf.keras.layers.Dense(2, activation="sigmoid")
        self.out = tf.keras.layers.Dense(1)

    def call(self, x):
        return tf.math.round(self.out(self.hidden(x)))


X = np.array([[0, 0], [0, 1], [1, 0], [1, 1]], dtype="float32")
y = np.array([[0], [1], [1], [0]], dtype="float32")
model = XorNet()
model.compile(loss="mean_absolute_error", optimizer=tf.keras.optimizers.SGD(0.1))
model.fit(X, y, epochs=2, batch_size=4, verbose=0)
