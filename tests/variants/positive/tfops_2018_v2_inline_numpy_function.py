# source: variant of 2018_keras_lambda_identity_py_func.py
# framework: tf
# family: E
# kind: keras-lambda-nondiff
# pitfall: an inline Lambda calls tf.numpy_function on an intermediate activation; numpy_function has no gradient, so the Dense layer before it never receives gradients (fit fails with "No gradients provided")
# expect: line 13 — tf.numpy_function inside the inline Lambda layer
# checked: ran, reproduces (ValueError: No gradients provided for any variable)
import numpy as np
import tensorflow as tf

inp = tf.keras.layers.Input(shape=(8,))
h = tf.keras.layers.Dense(4)(inp)
h = tf.keras.layers.Lambda(lambda t: tf.ensure_shape(tf.numpy_function(lambda a: a * 2.0, [t], tf.float32), t.shape))(h)
model = tf.keras.Model(inp, h)
model.compile(optimizer="adam", loss="mae")
model.fit(np.zeros((4, 8), np.float32), np.zeros((4, 4), np.float32), verbose=0)
