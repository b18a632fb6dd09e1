# source: https://github.com/keras-team/keras/issues/7246
# framework: tf
# family: E
# kind: keras-lambda-nondiff
# pitfall: a custom Lambda layer casts the previous layer's float output to int32 (for bitwise work) and back to float32; integer casts have no gradient, so building the training function converts a None gradient to a tensor and fails
# expect: line 13 — tf.to_int32 inside the Lambda layer cuts the gradient to every layer before it
# checked: parse only (TF1 API tf.to_int32 / tf.to_float; the traceback in the thread is the 'None values not supported' conversion of a missing gradient)
import tensorflow as tf
from keras.layers import Lambda


def f(x):
    y = tf.to_int32(x)
    # bitwiseXor = tf.bitwise.bitwise_xor(bitwiseXor, kkk)
    z = tf.to_float(y)
    return z


def add_layer(y1):
    # add my self-defined layer
    y = Lambda(f)(y1)  # y1 is the output of last layer
    return y
