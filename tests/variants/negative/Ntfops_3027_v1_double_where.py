# source: variant of 3027_tf_where_reciprocal_and_log_branches.py
# framework: tf
# kind: where-nan-gradient
# negative: the double-where fix: each branch's argument is made safe before log / reciprocal
# mimics: positive/3027_v1_tf2_math_log.py
# expect: no finding
# checked: ran (gradients finite at x = 1, -1, 0)
import tensorflow as tf


def transfer(x):
    neg = x < 0
    x_neg = tf.where(neg, x, tf.zeros_like(x))
    x_pos = tf.where(neg, tf.zeros_like(x), x)
    return tf.where(neg, 1.0 / (1.0 - x_neg), tf.math.log(x_pos + 1.0))


for v in (1.0, -1.0, 0.0):
    x = tf.Variable([v])
    with tf.GradientTape() as tape:
        y = transfer(x)
    print(v, y.numpy(), tape.gradient(y, x).numpy())
