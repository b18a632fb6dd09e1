# source: variant of 3027_tf_where_reciprocal_and_log_branches.py
# framework: tf
# kind: where-nan-gradient
# negative: tf.where(x > 0, tf.sqrt(x), 0.): TensorFlow's SqrtGrad returns 0 where the incoming gradient is 0 (TF 2.21), so the unselected NaN branch leaves no NaN in the gradient
# mimics: positive/3027_v1_tf2_math_log.py
# expect: no finding
# checked: ran (gradient [0., 0.5] at x = [-1, 1])
import tensorflow as tf


def transfer(x):
    return tf.where(x > 0, tf.sqrt(x), tf.zeros_like(x))


x = tf.Variable([-1.0, 1.0])
with tf.GradientTape() as tape:
    y = tf.reduce_sum(transfer(x))
print(tape.gradient(y, x))
