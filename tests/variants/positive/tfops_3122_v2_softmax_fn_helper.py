# source: variant of 3122_tf1_log_of_softmax_cross_entropy.py
# framework: tf
# family: E
# kind: nan-grad-singular-point
# pitfall: the network helper returns tf.nn.softmax probabilities and the train step takes tf.math.log of them for a hand-written cross entropy; once a probability underflows to 0 the loss and gradients become NaN
# expect: line 27 — tf.math.log(calculated_output) where calculated_output comes back from a softmax helper
# checked: ran, reproduces (loss nan and NaN gradients with large weights)
import numpy as np
import tensorflow as tf

W1 = tf.Variable(tf.random.truncated_normal([10, 10], stddev=30.0))
W2 = tf.Variable(tf.random.truncated_normal([10, 10], stddev=30.0))


def net(x):
    hidden = tf.nn.relu(tf.matmul(x, W1))
    return tf.nn.softmax(tf.matmul(hidden, W2))


opt = tf.keras.optimizers.SGD(0.5)


@tf.function
def train_step(x, y):
    with tf.GradientTape() as tape:
        calculated_output = net(x)
        cross_entropy = -tf.reduce_mean(y * tf.math.log(calculated_output))
    grads = tape.gradient(cross_entropy, [W1, W2])
    opt.apply_gradients(zip(grads, [W1, W2]))
    return cross_entropy, grads


x = tf.constant(np.random.rand(4, 10).astype(np.float32) * 10)
y = tf.constant(np.eye(10, dtype=np.float32)[[1, 2, 3, 4]])
loss, grads = train_step(x, y)
print(loss.numpy(), np.isnan(grads[1].numpy()).any())  # nan True
