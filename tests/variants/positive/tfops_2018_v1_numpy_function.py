# source: variant of 2018_keras_lambda_identity_py_func.py
# framework: tf
# family: E
# kind: keras-lambda-nondiff
# pitfall: a Lambda layer wraps tf.numpy_function (the TF2 name of py_func) between the network and the loss; numpy_function has no gradient, so fit() finds no gradient for any variable
# expect: line 18 — tf.numpy_function in the function wrapped by the Lambda layer
# checked: ran, reproduces (ValueError: No gradients provided for any variable)
import numpy as np
import tensorflow as tf
from tensorflow import keras


def np_postprocess(a):
    return np.tanh(a).astype(np.float32)


def postprocess(x):
    y = tf.numpy_function(np_postprocess, [x], tf.float32)
    y.set_shape(x.shape)
    return y


inp = keras.Input(shape=(8,))
h = keras.layers.Dense(4)(inp)
out = keras.layers.Lambda(postprocess, name="np_post")(h)
model = keras.Model(inp, out)
model.compile(optimizer="adam", loss="mae")
model.fit(np.zeros((4, 8), np.float32), np.zeros((4, 4), np.float32), verbose=0)
