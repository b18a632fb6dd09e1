# source: https://github.com/tensorflow/tensorflow/issues/27684
# framework: tf
# kind: where-nan-gradient
# negative: the accepted fix — replace x by a safe value first (x = safe_x) so log never sees negatives
# mimics: positive/2031_tf_where_log_negative_inputs.py
# expect: no finding
# checked: ran, finite gradient
import tensorflow as tf
import numpy as np
x = tf.convert_to_tensor(np.random.randn(100).astype(np.float32))
alpha = tf.Variable(1, name='asdf', dtype=tf.float32, trainable=True)
with tf.GradientTape(persistent=True) as t:
    safe_x = tf.where(x > 0, x, tf.ones_like(x))
    x = safe_x # this fixes it
    s = tf.where(x >= 0, alpha * tf.math.log(x), tf.zeros_like(x))
print(t.gradient(s, [alpha]))
