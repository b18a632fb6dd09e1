# source: variant of 2029_tf_where_inactive_pow_exp_overflow.py
# framework: tf
# kind: where-nan-gradient
# negative: the hand-written softplus is replaced by tf.nn.softplus (stable, finite gradient)
# mimics: positive/2029_v1_softplus_custom_activation.py
# expect: no finding
# checked: ran (gradient [0.73, 1.0])
import tensorflow as tf


class SafeSoftplus(tf.keras.layers.Layer):
    def call(self, x):
        return tf.nn.softplus(x)


x = tf.Variable([1.0, 100.0])
with tf.GradientTape() as tape:
    y = tf.reduce_sum(SafeSoftplus()(x))
print(tape.gradient(y, x))
