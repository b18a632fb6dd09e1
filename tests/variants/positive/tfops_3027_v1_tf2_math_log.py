# source: variant of 3027_tf_where_reciprocal_and_log_branches.py
# framework: tf
# family: E
# kind: where-nan-gradient
# pitfall: transfer = tf.where(x < 0, 1/(1-x), tf.math.log(x+1)) evaluates both branches: at x = -1 the unselected log(x+1) is -inf, at x = 1 the unselected 1/(1-x) is inf, and their infinite derivatives times where's 0 cotangent give NaN gradients
# expect: line 12 — tf.where(x < 0, 1/(1-x), tf.math.log(x+1)) with an infinite unselected branch
# checked: ran, reproduces (gradients [nan] at x = 1 and x = -1)
import tensorflow as tf


def transfer(x):
    return tf.where(x < 0, 1.0 / (1.0 - x), tf.math.log(x + 1.0))


for v in (1.0, -1.0, 0.0):
    x = tf.Variable([v])
    with tf.GradientTape() as tape:
        y = transfer(x)
    print(v, y.numpy(), tape.gradient(y, x).numpy())
