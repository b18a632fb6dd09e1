# source: https://github.com/tensorflow/tensorflow/issues/26143
# framework: tf
# family: B
# kind: tf-tape-scope
# pitfall: the variables are created from Python ints, so they are int32; the tape does not watch integer variables and tape.gradient returns None for both sources (silently)
# expect: line 15 — integer tf.Variables used as gradient sources (tape.gradient(result, params) below returns [None, None])
# checked: not run (TF/JAX not installed); the thread shows tape.gradient(result, params) returning None values, and correct gradients once the variables are float
import tensorflow as tf


def forward(a, b):
    """f = a * b"""
    return a * b

params = [tf.Variable(1), tf.Variable(2)]

with tf.GradientTape() as tape:
    result = forward(*params)

tape.gradient(result, params)
