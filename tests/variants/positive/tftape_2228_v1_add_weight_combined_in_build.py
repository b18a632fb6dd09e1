# source: variant of 2228_keras_noisy_dense_kernel_combined_in_build.py
# framework: tf
# family: B
# kind: tf-tape-scope
# pitfall: the low-rank layer creates its factors with add_weight in build() and multiplies them into self.kernel right there; the product runs once at build time, outside any GradientTape, so call() uses a constant and the factors get None gradients
# expect: line 21 — the effective kernel u @ v is computed in build(), not in call(), so the tape never records it
# checked: ran (tensorflow-cpu 2.21), reproduces (both factors get None gradients)
import tensorflow as tf
import keras


class LowRankDense(keras.layers.Layer):
    def __init__(self, units, rank=2):
        super().__init__()
        self.units = units
        self.rank = rank

    def build(self, input_shape):
        self.u = self.add_weight(shape=(input_shape[-1], self.rank), initializer="glorot_uniform", name="u")
        self.v = self.add_weight(shape=(self.rank, self.units), initializer="glorot_uniform", name="v")
        self.kernel = tf.matmul(self.u, self.v)

    def call(self, inputs):
        return tf.matmul(inputs, self.kernel)


layer = LowRankDense(3)
x = tf.random.normal((4, 5))
layer(x)
with tf.GradientTape() as tape:
    loss = tf.reduce_sum(layer(x))
print(tape.gradient(loss, [layer.u, layer.v]))
