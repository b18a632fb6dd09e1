# source: variant of 2015_keras_round_output_layer.py
# framework: tf
# kind: nondiff-op-on-loss-path
# negative: the Round layer uses a straight-through estimator, so the gradient passes as identity
# mimics: positive/2015_v1_call_tf_round.py
# expect: no finding
# checked: ran (fit trains)
import numpy as np
import tensorflow as tf
from tensorflow.keras.layers import Layer, Dense
from tensorflow.keras.models import Sequential


class Round(Layer):
    def call(self, inputs):
        return inputs + tf.stop_gradient(tf.round(inputs) - inputs)


m = Sequential()
m.add(Dense(20, activation="relu", input_shape=(100,)))
m.add(Dense(3))
m.add(Round())
m.compile(loss="mean_absolute_error", optimizer="adam")
m.fit(np.random.rand(16, 100), np.random.randint(0, 5, (16, 3)).astype("float32"), verbose=0)
