# source: https://www.tensorflow.org/api_docs/python/tf/Variable
# family: B
# negative: variables initialised from integer literals but with an explicit float dtype (or a float literal), so they are differentiable
# mimics: tf.Variable(3) integer variable
# expect: no finding

import tensorflow as tf

shift = tf.Variable(3, dtype=tf.float32)
scale = tf.Variable(2.0)
x = tf.constant([1.0, 2.0, 3.0])
opt = tf.keras.optimizers.SGD(0.01)

for _ in range(100):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean((scale * x + shift - 10.0) ** 2)
    grads = tape.gradient(loss, [scale, shift])
    opt.apply_gradients(zip(grads, [scale, shift]))
print(scale.numpy(), shift.numpy())
