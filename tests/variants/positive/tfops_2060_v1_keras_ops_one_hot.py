# source: variant of 2060_keras_lambda_one_hot_argmax_decoder.py
# framework: tf
# family: E
# kind: keras-lambda-nondiff
# pitfall: the relay's output goes through a Lambda that takes ops.one_hot(ops.argmax(softmax(x))); argmax has no gradient, so fit() finds no gradient for any variable
# expect: line 18 — ops.one_hot(ops.argmax(x)) in the Lambda layer that produces the model output
# checked: ran, reproduces (ValueError: No gradients provided for any variable)
import numpy as np
import keras
from keras import layers, ops

M = 16
onehot_symbols = np.eye(M, dtype="float32")


def decode_signal(x):
    probs = ops.softmax(x, axis=-1)
    symbols = ops.one_hot(ops.argmax(probs, axis=-1), M)
    return symbols


input_layer = keras.Input(shape=(M,))
relay = layers.Dense(M, activation="relu")(input_layer)
relay = layers.Dense(M)(relay)
decoded = layers.Lambda(decode_signal, output_shape=(M,))(relay)
model = keras.Model(input_layer, decoded)
model.compile(optimizer=keras.optimizers.Adam(1e-3), loss="categorical_crossentropy")
model.fit(onehot_symbols, onehot_symbols, epochs=1, verbose=0)
