# source: variant of 3027_tf_where_reciprocal_and_log_branches.py
# framework: tf
# family: E
# kind: where-nan-gradient
# pitfall: a masked normalisation tf.where(count > 0, tf.math.divide(total, count), 0.) still divides by zero in the unselected branch; the division's gradient there is inf/NaN and where's zero cotangent cannot cancel it
# expect: line 12 — tf.where whose unselected branch tf.math.divide(...) divides by zero
# checked: ran, reproduces (gradient w.r.t. count is nan at the zero entry)
import tensorflow as tf


def masked_mean(total, count):
    return tf.where(count > 0, tf.math.divide(total, count), tf.zeros_like(total))


total = tf.Variable([3.0, 0.0])
count = tf.Variable([2.0, 0.0])
with tf.GradientTape() as tape:
    loss = tf.reduce_sum(masked_mean(total, count))
print(tape.gradient(loss, [total, count]))  # nan at the zero entry
