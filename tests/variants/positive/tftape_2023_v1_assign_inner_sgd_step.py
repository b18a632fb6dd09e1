# source: variant of 2023_tf_assign_add_breaks_meta_gradient.py
# framework: tf
# family: B
# kind: tf-variable-assign-in-tape
# pitfall: a MAML-style inner step writes the adapted weights back into the model variable with assign_sub inside the outer tape; assignments are not differentiable, so the meta-gradient with respect to the inner learning rate is None
# expect: line 24 — assign_sub writes the inner update into the variable; the tape cannot differentiate through the assignment
# checked: ran, reproduces (meta-gradient None)
import tensorflow as tf

w = tf.Variable([1.0, -1.0])
inner_lr = tf.Variable(0.1)
x_support, y_support = tf.constant([[1.0, 2.0]]), tf.constant([1.0])
x_query, y_query = tf.constant([[2.0, 1.0]]), tf.constant([0.5])


def loss_fn(x, y):
    return tf.reduce_mean(tf.square(tf.linalg.matvec(x, w) - y))


with tf.GradientTape() as outer_tape:
    with tf.GradientTape() as inner_tape:
        inner_loss = loss_fn(x_support, y_support)
    g = inner_tape.gradient(inner_loss, w)
    w.assign_sub(inner_lr * g)
    outer_loss = loss_fn(x_query, y_query)
print(outer_tape.gradient(outer_loss, inner_lr))
