# source: variant of 3054_tf_int_variables_not_differentiable.py
# framework: tf
# family: B
# kind: tf-tape-scope
# pitfall: the weights are initialised from np.arange, an integer array, so the tf.Variable is int64; the tape does not watch integer variables and tape.gradient returns None silently
# expect: line 11 — integer tf.Variable (initialised from np.arange) used as a gradient source
# checked: ran, reproduces (None)
import numpy as np
import tensorflow as tf

w = tf.Variable(np.arange(4))
x = tf.constant(np.ones(4, dtype=np.int64))
with tf.GradientTape() as tape:
    y = tf.reduce_sum(w * x)
print(tape.gradient(y, w))
