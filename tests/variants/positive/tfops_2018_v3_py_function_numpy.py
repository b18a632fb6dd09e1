# source: variant of 2018_keras_lambda_identity_py_func.py
# framework: tf
# family: E
# kind: keras-lambda-nondiff
# pitfall: a Lambda layer wraps tf.py_function whose body goes through NumPy (.numpy()), which leaves the tape inside the py_function, so no real gradient reaches the Dense layer (the eager gradient is a bare 0.0; fit() crashes in the bias gradient)
# expect: line 23 — tf.py_function in the Lambda layer whose body leaves TensorFlow
# checked: ran, reproduces (fit fails with InvalidArgumentError "Input tensor must be at least 2D" in BiasAddGrad: the py_function gradient through .numpy() is a bare scalar 0.0, as an eager tape also shows)
import numpy as np
import tensorflow as tf
from tensorflow import keras


def _smooth(t):
    a = t.numpy()
    return np.clip(a, -1.0, 1.0)


class Net:
    def build(self):
        inp = keras.Input(shape=(8,))
        h = keras.layers.Dense(4)(inp)
        out = keras.layers.Lambda(
            lambda t: tf.ensure_shape(tf.py_function(_smooth, [t], tf.float32), t.shape))(h)
        return keras.Model(inp, out)


model = Net().build()
model.compile(optimizer="adam", loss="mae")
model.fit(np.zeros((4, 8), np.float32), np.zeros((4, 4), np.float32), verbose=0)
