# source: https://github.com/tensorflow/tensorflow/issues/13826
# framework: tf
# family: B
# kind: int-dtype-parameter
# pitfall: the loop variables are created from Python ints, so they are int32 tensors; tf.gradients does not propagate through integer tensors and returns None for d w[0] / d i (the float version works)
# expect: line 12 — tf.constant(1) creates an int32 tensor that is then differentiated with tf.gradients
# checked: parse-only (TF1 graph code)
import tensorflow as tf

g=tf.Graph()
with g.as_default():
    i=tf.constant(1, name="i")
    inc=tf.constant(1, name="inc")
    w=tf.while_loop(lambda i,inc: i<=5, lambda i,inc: [i+inc, inc], [i,inc])
    grad=tf.gradients(w[0],i)
