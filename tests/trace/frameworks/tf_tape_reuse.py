import tensorflow as tf

tf.random.set_seed(0)
w = tf.Variable(tf.random.normal([8, 1]))
b = tf.Variable(tf.zeros([1]))
x, y = tf.random.normal([32, 8]), tf.random.normal([32, 1])
with tf.GradientTape() as tape:
    loss = tf.reduce_mean((x @ w + b - y) ** 2)
gw = tape.gradient(loss, w)
gb = tape.gradient(loss, b)  # expect: GL114
