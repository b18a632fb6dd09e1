# source: variant of 2029_tf_where_inactive_pow_exp_overflow.py
# framework: tf
# kind: where-nan-gradient
# negative: the double-where fix: the argument of the overflowing branch is replaced by a safe value before exp/pow
# mimics: positive/2029_v3_two_step_variables.py
# expect: no finding
# checked: ran (gradient [1., 1.])
import tensorflow as tf

a = tf.Variable([10.0, 1.0])
with tf.GradientTape() as tape:
    use_small = a < 15.0
    safe_a = tf.where(use_small, tf.zeros_like(a), a)
    small = a
    large = tf.math.pow(10.0, tf.math.exp(safe_a))
    out = tf.where(use_small, small, large)
    loss = tf.reduce_sum(out)
print(tape.gradient(loss, a))
