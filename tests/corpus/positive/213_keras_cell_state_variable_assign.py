# source: synthetic
# family: B
# pitfall: custom recurrent Keras layer stores its hidden state in a non-trainable tf.Variable and updates it with self.h_state.assign(...) during call()
# expect: line 18 — the output is read back from the variable after assign(): the tape sees a stateful read, so the recurrent kernels get no gradient

import tensorflow as tf
from tensorflow import keras


class StatefulCell(keras.layers.Layer):
    def __init__(self, units, batch):
        super().__init__()
        self.wx = keras.layers.Dense(units)
        self.wh = keras.layers.Dense(units, use_bias=False)
        self.h_state = tf.Variable(tf.zeros((batch, units)), trainable=False)

    def call(self, x):
        self.h_state.assign(tf.tanh(self.wx(x) + self.wh(self.h_state)))
        return self.h_state


cell, head = StatefulCell(32, batch=16), keras.layers.Dense(1)
opt = keras.optimizers.Adam(1e-3)
seq, y = tf.random.normal((10, 16, 8)), tf.random.normal((16, 1))
with tf.GradientTape() as tape:
    for t in range(10):
        h = cell(seq[t])
    loss = tf.reduce_mean(tf.square(head(h) - y))
variables = cell.trainable_variables + head.trainable_variables
grads = tape.gradient(loss, variables)
print([g is None for g in grads])  # cell kernels: None
