# source: https://github.com/tensorflow/tensorflow/issues/13826
# framework: tf
# kind: int-dtype-parameter
# negative: the reporter's working variant — the same loop on float constants, where tf.gradients returns a gradient
# mimics: positive/2220_tf1_while_loop_gradient_of_int_constant.py
# expect: no finding
# checked: parse-only (TF1 graph code)
import tensorflow as tf

g=tf.Graph()
with g.as_default():
    i=tf.constant(1.0, name="i")
    inc=tf.constant(1.0, name="inc")
    w=tf.while_loop(lambda i,inc: i<=5.0, lambda i,inc: [i+inc, inc], [i,inc])
    grad=tf.gradients(w[0],i)
