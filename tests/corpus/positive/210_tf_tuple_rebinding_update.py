# source: https://www.tensorflow.org/guide/autodiff#1_replaced_a_variable_with_a_tensor
# family: B
# pitfall: linear regression from scratch updates both Variables with a tuple assignment `w, b = w - lr * dw, b - lr * db`
# expect: line 18 — the names are rebound to plain tensors; on the next iteration the tape does not watch them and dw, db are None

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
    w, b = w - lr * dw, b - lr * db
    print(epoch, float(loss))
