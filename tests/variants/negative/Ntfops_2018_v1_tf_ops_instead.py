# source: variant of 2018_keras_lambda_identity_py_func.py
# framework: tf
# kind: keras-lambda-nondiff
# negative: the NumPy post-processing is rewritten with TensorFlow ops (tf.tanh), which have gradients
# mimics: positive/2018_v1_numpy_function.py
# expect: no finding
# checked: ran (fit trains)
import numpy as np
import tensorflow as tf
from tensorflow import keras


def postprocess(x):
    return tf.tanh(x)


inp = keras.Input(shape=(8,))
h = keras.layers.Dense(4)(inp)
out = keras.layers.Lambda(postprocess, name="tf_post")(h)
model = keras.Model(inp, out)
model.compile(optimizer="adam", loss="mae")
model.fit(np.zeros((4, 8), np.float32), np.zeros((4, 4), np.float32), verbose=0)
