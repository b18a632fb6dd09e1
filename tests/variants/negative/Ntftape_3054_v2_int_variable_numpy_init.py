# source: fixed twin of 3054_v2_int_variable_numpy_init.py
# framework: tf
# family: B
# kind: tf-tape-scope
# pitfall: none (np.arange(4, dtype=np.float32) gives a float32 variable)
# checked: ran, gradient present
import numpy as np
import tensorflow as tf

w = tf.Variable(np.arange(4, dtype=np.float32))
step = tf.Variable(0, trainable=False)
x = tf.constant(np.ones(4, dtype=np.float32))
with tf.GradientTape() as tape:
    y = tf.reduce_sum(w * x)
print(tape.gradient(y, w))
step.assign_add(1)
