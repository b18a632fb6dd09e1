# source: variant of 2029_tf_where_inactive_pow_exp_overflow.py
# framework: tf
# family: E
# kind: where-nan-gradient
# pitfall: a Keras 3 activation picks a linear branch above a threshold with ops.where, but the inactive branch ops.power(10, ops.exp(a)) overflows to inf and its gradient times where's zero cotangent is NaN
# expect: line 13 — ops.where whose unselected branch overflows to inf
# checked: ran, reproduces (gradient nan)
import tensorflow as tf
from keras import ops


def capped_activation(a, limit=15.0):
    return ops.where(a < limit, a, ops.power(10.0, ops.exp(a)))


a = tf.Variable(10.0)
with tf.GradientTape() as tape:
    out = capped_activation(a)
print(tape.gradient(out, a))  # nan
