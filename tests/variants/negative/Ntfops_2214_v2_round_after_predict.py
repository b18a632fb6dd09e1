# source: variant of 2214_keras_round_output_layer_xor.py
# framework: tf
# kind: nondiff-op-on-loss-path
# negative: the model is trained without the Round layer; rounding is applied to model.predict() only
# mimics: positive/2214_v2_round_in_model_subclass.py
# expect: no finding
# checked: ran (fit trains)
import numpy as np
import tensorflow as tf


class XorNet(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.hidden = tf.keras.layers.Dense(2, activation="sigmoid")
        self.out = tf.keras.layers.Dense(1)

    def call(self, x):
        return self.out(self.hidden(x))


X = np.array([[0, 0], [0, 1], [1, 0], [1, 1]], dtype="float32")
y = np.array([[0], [1], [1], [0]], dtype="float32")
model = XorNet()
model.compile(loss="mean_absolute_error", optimizer=tf.keras.optimizers.SGD(0.1))
model.fit(X, y, epochs=2, batch_size=4, verbose=0)
print(tf.math.round(model.predict(X, verbose=0)))
