"""TensorFlow: NumPy inside the tape, and a non-persistent tape asked twice."""

import numpy as np
import tensorflow as tf

x = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
with tf.GradientTape() as tape:
    y = tf.reduce_sum(np.square(x))  # the tape cannot see NumPy (GL111)
    z = tf.reduce_sum(x ** 3)

print(tape.gradient(y, x))
print(tape.gradient(z, x))  # second call on a non-persistent tape (GL114)
