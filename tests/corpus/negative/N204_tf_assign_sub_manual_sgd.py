# source: https://www.tensorflow.org/guide/basic_training_loops
# family: B
# negative: manual gradient descent keeps the tf.Variables and updates them in place with assign_sub outside the tape
# mimics: w - lr * dw style manual update of tf.Variables
# expect: no finding

import tensorflow as tf

X = tf.random.normal((200, 1))
Y = 4.0 * X - 1.0 + 0.1 * tf.random.normal((200, 1))
w = tf.Variable(tf.zeros((1, 1)))
b = tf.Variable(0.0)
lr = 0.1

for epoch in range(20):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(X @ w + b - Y))
    dw, db = tape.gradient(loss, [w, b])
    w.assign_sub(lr * dw)
    b.assign_sub(lr * db)
    print(epoch, float(loss), w.numpy().item(), b.numpy().item())
