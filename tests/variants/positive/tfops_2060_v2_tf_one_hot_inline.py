# source: variant of 2060_keras_lambda_one_hot_argmax_decoder.py
# framework: tf
# family: E
# kind: keras-lambda-nondiff
# pitfall: the decoder output is tf.one_hot(tf.argmax(...)) inside an inline Lambda at the end of a Sequential autoencoder; argmax has no gradient, so fit() finds no gradient for any variable
# expect: line 16 — tf.one_hot(tf.argmax(x)) in the inline Lambda output layer
# checked: ran, reproduces (ValueError: No gradients provided for any variable)
import numpy as np
import tensorflow as tf

M = 16
autoencoder = tf.keras.Sequential([
    tf.keras.layers.Dense(M, activation="relu", input_shape=(M,)),
    tf.keras.layers.Dense(4),
    tf.keras.layers.Dense(M, activation="softmax"),
    tf.keras.layers.Lambda(lambda p: tf.one_hot(tf.argmax(p, axis=-1), depth=M)),
])
autoencoder.compile(optimizer="adam", loss="categorical_crossentropy")
data = np.eye(M, dtype="float32")
autoencoder.fit(data, data, epochs=1, verbose=0)
