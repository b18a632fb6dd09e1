# source: variant of 3027_tf_where_reciprocal_and_log_branches.py
# framework: tf
# family: E
# kind: where-nan-gradient
# pitfall: a "safe" entropy term tf.where(p > 0, p * tf.math.log(p), tf.zeros_like(p)) still evaluates log(0) = -inf in the unselected branch; its infinite derivative times where's zero cotangent is NaN
# expect: line 12 — tf.where whose unselected branch p * log(p) is non-finite at p == 0
# checked: ran, reproduces (gradient w.r.t. the zero probability is nan)
import tensorflow as tf


def entropy(p):
    plogp = tf.where(p > 0, p * tf.math.log(p), tf.zeros_like(p))
    return -tf.reduce_sum(plogp, axis=-1)


p = tf.Variable([[0.5, 0.5, 0.0]])
with tf.GradientTape() as tape:
    h = tf.reduce_mean(entropy(p))
print(tape.gradient(h, p))  # [..., nan]
