# source: variant of 2213_keras_lambda_greater_binary_mask_output.py
# framework: tf
# family: E
# kind: keras-lambda-nondiff
# pitfall: a Keras 3 Lambda output layer returns ops.cast(ops.greater(a, b), "float32"); a comparison has no gradient, so fit() finds no gradient for any variable
# expect: line 17 — ops.greater mask returned from the Lambda layer that is the model's output
# checked: ran, reproduces (ValueError: No gradients provided for any variable)
import numpy as np
import keras
from keras import ops

units = 4


def binary_mask(x):
    a, b = ops.split(x, 2, axis=-1)
    mask = ops.greater(a, b)
    return ops.cast(mask, "float32")


x_in = keras.Input(shape=(10,))
h = keras.layers.Dense(2 * units)(x_in)
out = keras.layers.Lambda(binary_mask)(h)
model = keras.Model(x_in, out)
model.compile(optimizer="adam", loss="binary_crossentropy")
model.fit(np.random.rand(8, 10), np.random.randint(0, 2, (8, units)).astype("float32"), verbose=0)
