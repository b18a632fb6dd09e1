import tensorflow as tf

tf.random.set_seed(0)
w = tf.Variable(tf.random.normal([8, 1]), name="w")
extra = tf.Variable(tf.ones([1]), name="extra")  # never used by the loss
opt = tf.keras.optimizers.SGD(0.01)
for step in range(20):
    x, y = tf.random.normal([32, 8]), tf.random.normal([32, 1])
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean((x @ w - y) ** 2)
    grads = tape.gradient(loss, [w, extra])  # expect: GL605
    opt.apply_gradients([(g, v) for g, v in zip(grads, [w, extra]) if g is not None])
