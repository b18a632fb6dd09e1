# source: variant of 2060_keras_lambda_one_hot_argmax_decoder.py
# framework: tf
# family: E
# kind: keras-lambda-nondiff
# pitfall: the autoencoder builder wraps its own static method (tf.one_hot(tf.argmax(...))) in a Lambda that produces the model output; argmax has no gradient, so fit() finds no gradient for any variable
# expect: line 17 — tf.one_hot(tf.argmax(x)) in the static method wrapped by the Lambda output layer
# checked: ran, reproduces (ValueError: No gradients provided for any variable)
import numpy as np
import tensorflow as tf

M = 16


class Autoencoder:
    @staticmethod
    def hard_decode(x):
        return tf.one_hot(tf.argmax(tf.nn.softmax(x), axis=-1), depth=M)

    def build(self):
        inp = tf.keras.Input(shape=(M,))
        h = tf.keras.layers.Dense(M, activation="relu")(inp)
        h = tf.keras.layers.Dense(M)(h)
        out = tf.keras.layers.Lambda(self.hard_decode, output_shape=(M,))(h)
        return tf.keras.Model(inp, out)


model = Autoencoder().build()
model.compile(optimizer="adam", loss="categorical_crossentropy")
data = np.eye(M, dtype="float32")
model.fit(data, data, epochs=1, verbose=0)
