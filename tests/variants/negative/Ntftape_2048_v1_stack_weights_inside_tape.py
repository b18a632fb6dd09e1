# source: fixed twin of 2048_v1_stack_weights_outside_tape.py
# framework: tf
# family: B
# kind: tf-tape-scope
# pitfall: none (the variables are stacked inside the tape and the gradient is taken w.r.t. the variables)
# checked: ran, gradients present
import tensorflow as tf

weights = [tf.Variable(tf.random.normal((3,))) for _ in range(4)]
x = tf.random.normal((3, 5))
target = tf.zeros((4, 5))
with tf.GradientTape() as tape:
    W = tf.stack(weights, axis=0)
    out = tf.matmul(W, x)
    loss = tf.reduce_mean(tf.square(out - target))
print(tape.gradient(loss, weights))
