# source: https://www.tensorflow.org/guide/autodiff#controlling_what_the_tape_watches
# family: B
# pitfall: physics-informed net: du/dx requested w.r.t. collocation points built with tf.constant, never watched by the tape
# expect: line 14 — x is a tf.constant (not a Variable) and tape.watch(x) is missing: du_dx is None

import numpy as np
import tensorflow as tf

net = tf.keras.Sequential([tf.keras.layers.Dense(32, activation="tanh"), tf.keras.layers.Dense(1)])
x = tf.constant(np.linspace(-1.0, 1.0, 200)[:, None], dtype=tf.float32)

with tf.GradientTape() as tape:
    u = net(x)
du_dx = tape.gradient(u, x)

residual = du_dx + u  # u' = -u
print(tf.reduce_mean(residual ** 2))
