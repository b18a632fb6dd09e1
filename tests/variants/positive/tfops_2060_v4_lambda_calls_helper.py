# source: variant of 2060_keras_lambda_one_hot_argmax_decoder.py
# framework: tf
# family: E
# kind: keras-lambda-nondiff
# pitfall: the Lambda output layer is an inline lambda that calls a module-level helper hard_decode(x, M) = tf.one_hot(tf.argmax(x), M); argmax has no gradient, so fit() finds no gradient for any variable
# expect: line 15 — tf.one_hot(tf.argmax(x)) in the helper the Lambda layer calls
# checked: ran, reproduces (ValueError: No gradients provided for any variable)
import numpy as np
import tensorflow as tf

M = 16


def hard_decode(x, depth):
    return tf.one_hot(tf.argmax(x, axis=-1), depth=depth)


inp = tf.keras.Input(shape=(M,))
h = tf.keras.layers.Dense(M)(inp)
out = tf.keras.layers.Lambda(lambda x: hard_decode(x, M), output_shape=(M,))(h)
model = tf.keras.Model(inp, out)
model.compile(optimizer="adam", loss="categorical_crossentropy")
model.fit(np.eye(M, dtype="float32"), np.eye(M, dtype="float32"), epochs=1, verbose=0)
