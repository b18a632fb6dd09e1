# source: https://github.com/keras-team/keras/issues/9130
# framework: tf
# family: E
# kind: keras-lambda-nondiff
# pitfall: a Lambda layer wraps tf.py_func, which has no gradient, between VGG16 and the loss; compiling the training function fails with "None values not supported"
# expect: line 27 — tf.py_func in the Lambda layer has no registered gradient
# checked: parse only (needs the VGG16 ImageNet weights download; TF1 keep_dims)
import numpy as np

import tensorflow as tf

import keras
from keras.layers import Input, Lambda, Flatten
from keras.models import Model
from keras.applications.vgg16 import VGG16

# Load VGG16
net = VGG16(include_top=True, weights='imagenet', input_shape=(224, 224, 3))
x_train = np.zeros((1, 224, 224, 3), dtype=np.float32)
y_train = np.zeros((1, 1), dtype=np.float32)

# (?, 1000) => (?, 1)
out1 = Lambda(lambda x: tf.reduce_sum(x, axis=-1, keep_dims=True), name='sums')(net.outputs[0])

# This is the (identity) py_func that causes the error for some reason.
def py_func(x):
    tensor = tf.py_func(lambda y: y, [x], tf.float32)
    # (Or else "TypeError: object of type 'NoneType' has no len())
    tensor.set_shape(x.shape)
    return tensor

out2 = Lambda(py_func, name='py_func')(out1)

# compile fails. Note that using out1 instead of out2 succeeds.
facenet = Model(net.inputs, out2)
facenet.compile(
    loss=keras.losses.mae,
    optimizer=keras.optimizers.Adam(lr=1e-5))
facenet.fit(x_train, y_train)
