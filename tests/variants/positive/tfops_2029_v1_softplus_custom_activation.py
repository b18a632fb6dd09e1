# source: variant of 2029_tf_where_inactive_pow_exp_overflow.py
# framework: tf
# family: E
# kind: where-nan-gradient
# pitfall: a hand-written stable softplus uses tf.where(x > 20, x, tf.math.log(1 + tf.exp(x))); for large x the inactive branch exp(x) overflows to inf, its gradient inf/inf is NaN, and tf.where's zero cotangent cannot cancel it
# expect: line 13 — tf.where whose unselected branch overflows to inf
# checked: ran, reproduces (gradient w.r.t. the input is nan for x = 100)
import tensorflow as tf


class SafeSoftplus(tf.keras.layers.Layer):
    def call(self, x):
        return tf.where(x > 20.0, x, tf.math.log(1.0 + tf.exp(x)))


x = tf.Variable([1.0, 100.0])
with tf.GradientTape() as tape:
    y = tf.reduce_sum(SafeSoftplus()(x))
print(tape.gradient(y, x))  # [0.73, nan]
