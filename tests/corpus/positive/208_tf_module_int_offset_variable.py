# source: https://www.tensorflow.org/guide/autodiff#3_took_gradients_through_an_integer_or_string
# family: B
# pitfall: a tf.Module calibration layer creates its learnable offset as tf.Variable(0) (int32 because of the integer literal)
# expect: line 13 — integer-dtype trainable variable: the tape warns and its gradient is None, so the offset is never learned

import tensorflow as tf


class ShiftScale(tf.Module):
    def __init__(self, dim, name=None):
        super().__init__(name=name)
        self.scale = tf.Variable(tf.ones([dim]), name="scale")
        self.offset = tf.Variable(0, name="offset")

    def __call__(self, x):
        return x * self.scale + tf.cast(self.offset, x.dtype)


layer = ShiftScale(4)
opt = tf.keras.optimizers.SGD(0.05)
x = tf.random.normal((32, 4))
target = 3.0 * x + 7.0
for _ in range(200):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(layer(x) - target))
    grads = tape.gradient(loss, layer.trainable_variables)
    print([g is None for g in grads])
    opt.apply_gradients(zip(grads, layer.trainable_variables))
