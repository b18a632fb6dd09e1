# source: variant of 2048_tf_concat_variables_outside_tape.py
# framework: tf
# family: B
# kind: tf-tape-scope
# pitfall: the per-layer variables are stacked into one tensor before the tape opens; the stacked tensor is not a variable and not watched, so the gradient with respect to it is None
# expect: line 11 — tf.stack of the variables runs before the GradientTape, so the tensor used in the loss is not recorded or watched
# checked: ran, reproduces (None)
import tensorflow as tf

weights = [tf.Variable(tf.random.normal((3,))) for _ in range(4)]
W = tf.stack(weights, axis=0)
x = tf.random.normal((3, 5))
target = tf.zeros((4, 5))
with tf.GradientTape() as tape:
    out = tf.matmul(W, x)
    loss = tf.reduce_mean(tf.square(out - target))
print(tape.gradient(loss, W))
