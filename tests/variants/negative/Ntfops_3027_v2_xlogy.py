# source: variant of 3027_tf_where_reciprocal_and_log_branches.py
# framework: tf
# kind: where-nan-gradient
# negative: the entropy term uses tf.math.xlogy(p, p), whose gradient at p == 0 is defined
# mimics: positive/3027_v2_safe_log_where.py
# expect: no finding
# checked: ran (finite gradient)
import tensorflow as tf


def entropy(p):
    return -tf.reduce_sum(tf.math.xlogy(p, p), axis=-1)


p = tf.Variable([[0.5, 0.5, 0.0]])
with tf.GradientTape() as tape:
    h = tf.reduce_mean(entropy(p))
print(tape.gradient(h, p))
