# source: variant of 2023_tf_assign_add_breaks_meta_gradient.py
# framework: tf
# family: B
# kind: tf-variable-assign-in-tape
# pitfall: the running state is updated with state.assign(state + x) inside the tape; an assignment is not differentiable, so the gradient of the loss with respect to the watched input x is None
# expect: line 14 — state.assign(state + x) writes x into the variable; the tape cannot differentiate through the assignment
# checked: ran, reproduces (gradient None)
import tensorflow as tf

state = tf.Variable(tf.zeros(3))


def accumulate(x):
    state.assign(state + x)
    return tf.reduce_sum(state * state)


x = tf.constant([1.0, 2.0, 3.0])
with tf.GradientTape() as tape:
    tape.watch(x)
    loss = accumulate(x)
print(tape.gradient(loss, x))
