# source: https://github.com/tensorflow/tensorflow/issues/26143
# framework: tf
# family: B
# kind: tf-tape-scope
# pitfall: NEGATIVE: the working variant stated in the thread: the same code with float variables
# expect: no finding
# checked: not run (TF/JAX not installed); the reporter states the gradients are correct when the tf.Variables are a float type
import tensorflow as tf


def forward(a, b):
    """f = a * b"""
    return a * b

params = [tf.Variable(1.), tf.Variable(2.)]

with tf.GradientTape() as tape:
    result = forward(*params)

tape.gradient(result, params)
