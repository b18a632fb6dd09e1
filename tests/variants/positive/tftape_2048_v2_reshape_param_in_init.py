# source: variant of 2048_tf_concat_variables_outside_tape.py
# framework: tf
# family: B
# kind: tf-tape-scope
# pitfall: the flat parameter vector is reshaped into a matrix once in __init__; the matrix is a plain tensor computed outside any tape, so the gradients w.r.t. it (and to the underlying variable) are None
# expect: line 14 — tf.reshape of the variable runs at construction, before the GradientTape, so the tensor used in the loss is not recorded
# checked: ran, reproduces (gradient None for the variable)
import tensorflow as tf


class LinearModel:
    def __init__(self, n_in, n_out):
        self.theta = tf.Variable(tf.random.normal((n_in * n_out,)))
        self.W = tf.reshape(self.theta, (n_in, n_out))

    def __call__(self, x):
        return tf.matmul(x, self.W)


model = LinearModel(3, 2)
x = tf.random.normal((4, 3))
with tf.GradientTape() as tape:
    loss = tf.reduce_mean(tf.square(model(x)))
print(tape.gradient(loss, model.theta))
