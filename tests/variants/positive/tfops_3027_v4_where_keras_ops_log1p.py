# source: variant of 3027_tf_where_reciprocal_and_log_branches.py
# framework: tf
# family: E
# kind: where-nan-gradient
# pitfall: a Keras 3 transfer ops.where(x < 0, 1/(1-x), ops.log1p(x)) evaluates both branches: at x = 1 the unselected 1/(1-x) is inf, at x = -1 the unselected log1p(x) is -inf, and where's zero cotangent times their infinite derivatives is NaN
# expect: line 13 — ops.where whose unselected branch is infinite
# checked: ran, reproduces (gradient [nan, nan] at x = [1, -1])
import tensorflow as tf
from keras import ops


def transfer(x):
    return ops.where(x < 0, 1.0 / (1.0 - x), ops.log1p(x))


x = tf.Variable([1.0, -1.0, 0.5])
with tf.GradientTape() as tape:
    y = ops.sum(transfer(x))
print(tape.gradient(y, x))  # [nan, nan, 0.67]
