# source: fixed twin of 2023_v1_assign_inner_sgd_step.py
# framework: tf
# family: B
# kind: tf-variable-assign-in-tape
# pitfall: none (the adapted weights are a tensor (w - inner_lr * g) used functionally; the variable is not assigned inside the tape)
# checked: ran, meta-gradient present
import tensorflow as tf

w = tf.Variable([1.0, -1.0])
inner_lr = tf.Variable(0.1)
x_support, y_support = tf.constant([[1.0, 2.0]]), tf.constant([1.0])
x_query, y_query = tf.constant([[2.0, 1.0]]), tf.constant([0.5])


def loss_fn(weights, x, y):
    return tf.reduce_mean(tf.square(tf.linalg.matvec(x, weights) - y))


with tf.GradientTape() as outer_tape:
    with tf.GradientTape() as inner_tape:
        inner_loss = loss_fn(w, x_support, y_support)
    g = inner_tape.gradient(inner_loss, w)
    fast_w = w - inner_lr * g
    outer_loss = loss_fn(fast_w, x_query, y_query)
print(outer_tape.gradient(outer_loss, inner_lr))
