# source: variant of 2213_keras_lambda_greater_binary_mask_output.py
# framework: tf
# family: E
# kind: keras-lambda-nondiff
# pitfall: the Lambda output layer returns tf.cast(pred1 > pred2, tf.float32); a comparison has no gradient, so fit() finds no gradient for any variable
# expect: line 18 — the `>` mask returned from the Lambda layer that is the model's output
# checked: ran, reproduces (ValueError: No gradients provided for any variable)
import numpy as np
import tensorflow as tf
from tensorflow.keras.layers import Dense, Input, Lambda
from tensorflow.keras.models import Model

units = 4


def binary_mask(x):
    pred1, pred2 = x[:, :units], x[:, units:]
    return tf.cast(pred1 > pred2, tf.float32)


x_in = Input(shape=(10,))
inputs = Dense(2 * units)(x_in)
outputs = Lambda(binary_mask, output_shape=(units,))(inputs)
model = Model(x_in, outputs)
model.compile(optimizer="adam", loss="binary_crossentropy")
model.fit(np.random.rand(8, 10), np.random.randint(0, 2, (8, units)).astype("float32"), verbose=0)
