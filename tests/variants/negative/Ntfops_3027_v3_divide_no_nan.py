# source: variant of 3027_tf_where_reciprocal_and_log_branches.py
# framework: tf
# kind: where-nan-gradient
# negative: tf.math.divide_no_nan instead of where(den != 0, num / den, 0)
# mimics: positive/3027_v3_where_divide.py
# expect: no finding
# checked: ran (finite gradient)
import tensorflow as tf


class RelativeError(tf.keras.losses.Loss):
    def call(self, y_true, y_pred):
        num = tf.abs(y_pred - y_true)
        ratio = tf.math.divide_no_nan(num, y_pred)
        return tf.reduce_mean(ratio, axis=-1)


y_pred = tf.Variable([[2.0, 0.0]])
with tf.GradientTape() as tape:
    loss = RelativeError()(tf.constant([[1.0, 1.0]]), y_pred)
print(tape.gradient(loss, y_pred))
