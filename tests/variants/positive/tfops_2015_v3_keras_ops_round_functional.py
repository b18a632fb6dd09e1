# source: variant of 2015_keras_round_output_layer.py
# framework: tf
# family: E
# kind: nondiff-op-on-loss-path
# pitfall: a Keras 3 custom RoundLayer (keras.ops.round in call) is the model's output; rounding has no gradient, so fit() finds no gradient for any variable
# expect: line 18 — ops.round in the output layer's call()
# checked: ran, reproduces (ValueError: No gradients provided for any variable)
import numpy as np
import keras
from keras import layers, ops


class RoundLayer(layers.Layer):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)

    def call(self, x):
        y = ops.round(x)
        return y

    def get_config(self):
        return super().get_config()


def build(n_in=10):
    inp = keras.Input(shape=(n_in,))
    x = layers.Dense(20, activation="relu")(inp)
    x = layers.Dense(3)(x)
    return keras.Model(inp, RoundLayer()(x))


model = build()
model.compile(loss="mean_absolute_error", optimizer="adam")
model.fit(np.random.rand(16, 10), np.random.randint(0, 5, (16, 3)).astype("float32"), verbose=0)
