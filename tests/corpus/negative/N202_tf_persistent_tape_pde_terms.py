# source: https://www.tensorflow.org/guide/advanced_autodiff
# family: B
# negative: a persistent tape (watching the collocation points) is queried for two derivatives outside the with-block and then deleted
# mimics: several tape.gradient calls on one tape / tf.constant sources
# expect: no finding

import tensorflow as tf

net = tf.keras.Sequential([tf.keras.layers.Dense(32, activation="tanh"), tf.keras.layers.Dense(1)])
x = tf.constant(tf.linspace(-1.0, 1.0, 100)[:, None])
t = tf.constant(tf.linspace(0.0, 1.0, 100)[:, None])

with tf.GradientTape(persistent=True) as tape:
    tape.watch([x, t])
    u = net(tf.concat([x, t], axis=1))

u_x = tape.gradient(u, x)
u_t = tape.gradient(u, t)
del tape
print(tf.reduce_mean((u_t + u * u_x) ** 2))
