import numpy as np
import tensorflow as tf

tf.random.set_seed(0)
w = tf.Variable(tf.random.normal([8, 1]), name="w")
b = tf.Variable(tf.zeros([1]), name="b")
opt = tf.keras.optimizers.SGD(0.01)
for step in range(20):
    x, y = tf.random.normal([32, 8]), tf.random.normal([32, 1])
    with tf.GradientTape() as tape:
        h = tf.constant(np.tanh((x @ w).numpy()))  # expect: GL111
        loss = tf.reduce_mean((h + b - y) ** 2)
    grads = tape.gradient(loss, [w, b])  # the None gradient: related information of the GL111
    opt.apply_gradients([(g, v) for g, v in zip(grads, [w, b]) if g is not None])
