# source: https://github.com/tensorflow/tensorflow/issues/27684
# framework: tf
# family: E
# kind: where-nan-gradient
# pitfall: tf.where keeps alpha * log(x) only for x >= 0, but log is still evaluated (and differentiated) for the negative entries, so the gradient with respect to alpha is nan
# expect: line 15 — log of the raw x (with negative entries) inside the where branch
# checked: ran, reproduces (gradient nan)
import tensorflow as tf
import numpy as np
x = tf.convert_to_tensor(np.random.randn(100).astype(np.float32))
alpha = tf.Variable(1, name='asdf', dtype=tf.float32, trainable=True)
with tf.GradientTape(persistent=True) as t:
    safe_x = tf.where(x > 0, x, tf.ones_like(x))
    # x = safe_x # this fixes it
    s = tf.where(x >= 0, alpha * tf.math.log(x), tf.zeros_like(x))
print(t.gradient(s, [alpha]))
