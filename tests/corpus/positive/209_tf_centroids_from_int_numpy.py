# source: synthetic
# family: B
# pitfall: cluster centres initialised as tf.Variable(np.array([[0, 0], [5, 5], [10, 0]])), an int64 array, then optimised by gradient descent
# expect: line 10 — integer NumPy literal gives an int64 Variable: tape.gradient returns None for it (and the cast in the loss hides the problem)

import numpy as np
import tensorflow as tf

points = tf.constant(np.random.randn(300, 2) * 2 + np.repeat([[0, 0], [6, 6], [12, 0]], 100, axis=0), dtype=tf.float32)
centroids = tf.Variable(np.array([[0, 0], [5, 5], [10, 0]]))
opt = tf.keras.optimizers.Adam(0.1)

for it in range(100):
    with tf.GradientTape() as tape:
        c = tf.cast(centroids, tf.float32)
        d2 = tf.reduce_sum((points[:, None, :] - c[None]) ** 2, axis=-1)
        loss = tf.reduce_mean(tf.reduce_min(d2, axis=1))
    (g,) = tape.gradient(loss, [centroids])
    print(it, float(loss), g)  # g is None
