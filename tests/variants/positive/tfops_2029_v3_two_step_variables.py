# source: variant of 2029_tf_where_inactive_pow_exp_overflow.py
# framework: tf
# family: E
# kind: where-nan-gradient
# pitfall: both branches are computed into named variables first and then selected with tf.where; the unselected tf.math.pow(10, exp(a)) overflows to inf and where's zero cotangent times its infinite gradient is NaN
# expect: line 14 — tf.where selecting between the safe value and the overflowing branch
# checked: ran, reproduces (gradient nan)
import tensorflow as tf

a = tf.Variable([10.0, 1.0])
with tf.GradientTape() as tape:
    small = a
    large = tf.math.pow(10.0, tf.math.exp(a))
    out = tf.where(a < 15.0, small, large)
    loss = tf.reduce_sum(out)
print(tape.gradient(loss, a))  # [nan, 1.]
