# source: https://github.com/cleverhans-lab/cleverhans/issues/432
# framework: tf
# family: A
# kind: conversion-on-loss-path
# pitfall: a custom Keras layer computes np.sinh through tf.py_func; py_func has no gradient, so tf.gradients(loss, x) for the adversarial attack is None
# expect: line 23 — tf.py_func wrapping a NumPy function in the layer's call has no gradient
# checked: parse only (keras.engine.topology no longer exists)
import numpy as np
import tensorflow as tf
from keras.models import Sequential
from keras.layers import Dense, Activation
from keras.engine.topology import Layer

class MyLayer(Layer):
    def __init__(self, **kwargs):
        super(MyLayer, self).__init__(**kwargs)

    def build(self, input_shape):
        super(MyLayer, self).build(input_shape)

    def call(self, X):
        def __function(X): return np.sinh(X)
        return tf.reshape(tf.py_func(__function, [X], tf.float32), shape=(-1, *X.shape[1:]))
        # tf.reshape() is needed to enforce shape of output

kerasmodel = Sequential([
    MyLayer(batch_input_shape=(None, 4)),
    Activation('softmax'),
])
