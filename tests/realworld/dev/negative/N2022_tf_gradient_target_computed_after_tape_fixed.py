# source: https://github.com/tensorflow/tensorflow/issues/27660
# framework: tf
# kind: tf-tape-scope
# negative: the accepted fix — compute out = f(x) inside the with-block
# mimics: positive/2022_tf_gradient_target_computed_after_tape.py
# expect: no finding
# checked: ran, gradient 18.0
import tensorflow as tf

def f(x):
  return x ** 2

def grad(x):
  with tf.GradientTape() as t:
    t.watch(x)
    out = f(x)
  return t.gradient(out, x)

x = tf.convert_to_tensor(9.0)

grad(x).numpy()
