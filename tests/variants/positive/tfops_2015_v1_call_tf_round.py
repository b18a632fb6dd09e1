# source: variant of 2015_keras_round_output_layer.py
# framework: tf
# family: E
# kind: nondiff-op-on-loss-path
# pitfall: a custom Round layer (Keras 2/3 call() API) at the end of the network rounds the output; round has no gradient, so fit() finds no gradient for any variable
# expect: line 16 — tf.round in the output layer's call() has no gradient
# checked: ran, reproduces (ValueError: No gradients provided for any variable)
import numpy as np
import tensorflow as tf
from tensorflow.keras.layers import Layer, Dense
from tensorflow.keras.models import Sequential


class Round(Layer):
    def call(self, inputs):
        return tf.round(inputs)


m = Sequential()
m.add(Dense(20, activation="relu", input_shape=(100,)))
m.add(Dense(3))
m.add(Round())
m.compile(loss="mean_absolute_error", optimizer="adam")
m.fit(np.random.rand(16, 100), np.random.randint(0, 5, (16, 3)).astype("float32"), verbose=0)
