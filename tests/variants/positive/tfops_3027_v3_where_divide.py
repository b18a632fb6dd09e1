# source: variant of 3027_tf_where_reciprocal_and_log_branches.py
# framework: tf
# family: E
# kind: where-nan-gradient
# pitfall: a masked ratio tf.where(den != 0, num / den, 0) still computes num/0 = inf in the unselected branch; its gradient w.r.t. den is inf/NaN and where's zero cotangent cannot cancel it
# expect: line 15 — tf.where whose unselected branch divides by zero
# checked: ran, reproduces (gradient w.r.t. den is nan at the zero entry)
import tensorflow as tf


class RelativeError(tf.keras.losses.Loss):
    def call(self, y_true, y_pred):
        num = tf.abs(y_pred - y_true)
        den = y_pred
        ratio = tf.where(tf.not_equal(den, 0.0), num / den, tf.zeros_like(num))
        return tf.reduce_mean(ratio, axis=-1)


y_pred = tf.Variable([[2.0, 0.0]])
with tf.GradientTape() as tape:
    loss = RelativeError()(tf.constant([[1.0, 1.0]]), y_pred)
print(tape.gradient(loss, y_pred))  # [..., nan]
