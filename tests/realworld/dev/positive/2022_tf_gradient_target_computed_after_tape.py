# source: https://github.com/tensorflow/tensorflow/issues/27660
# framework: tf
# family: B
# kind: tf-tape-scope
# pitfall: f(x) is evaluated as the argument of t.gradient, after the with-block has closed, so the tape never recorded it and the gradient is None
# expect: line 17 — the target f(x) is computed in the gradient() call, outside the recording block
# checked: ran, reproduces (gradient None: 'NoneType' object has no attribute 'numpy')
import tensorflow as tf

def f(x):
  return x ** 2

def grad(x):
  with tf.GradientTape() as t:
    t.watch(x)
    # out = f(x)
  return t.gradient(f(x), x)

x = tf.convert_to_tensor(9.0)

grad(x).numpy()
