# source: https://github.com/tensorflow/tensorflow/issues/30234
# framework: tf
# family: B
# kind: tf-variable-assign-in-tape
# pitfall: the inner update is written into a tf.Variable with assign_add inside the tape; assignments are not differentiable, so the meta-gradient of the loss with respect to x is None
# expect: line 14 — assign_add writes x into the variable; the tape cannot differentiate through the assignment
# checked: ran, reproduces (the file's assert that the gradient is None holds)
import tensorflow as tf

v  = tf.Variable(1.0)
x = tf.convert_to_tensor(2.0)
with tf.GradientTape() as t:
  t.watch(x)
  v.assign_add(x)
  loss = v * v
assert t.gradient(loss, x) is None
