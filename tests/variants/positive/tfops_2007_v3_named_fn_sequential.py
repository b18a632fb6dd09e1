# source: variant of 2007_keras_lambda_tf_argmax_layer.py
# framework: tf
# family: E
# kind: keras-lambda-nondiff
# pitfall: a named function doing tf.math.argmax is wrapped in a Lambda at the end of a Sequential model; argmax has no gradient, so fit() finds no gradient for any variable
# expect: line 15 — tf.math.argmax in the function wrapped by the Lambda output layer
# checked: ran, reproduces (ValueError: No gradients provided for any variable)
import numpy as np
import tensorflow as tf
from tensorflow.keras import Sequential
from tensorflow.keras.layers import Dense, Lambda


def to_class_index(q):
    idx = tf.math.argmax(q, axis=-1)
    return tf.cast(idx, tf.float32)


model = Sequential([
    Dense(16, activation="relu", input_shape=(4,)),
    Dense(3),
    Lambda(to_class_index),
])
model.compile(optimizer="sgd", loss="mae")
model.fit(np.ones((32, 4)), np.zeros((32,)), epochs=1, verbose=0)
