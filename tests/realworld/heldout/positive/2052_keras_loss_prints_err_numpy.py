# source: https://github.com/tensorflow/tensorflow/issues/40508
# framework: tf
# family: B
# kind: tf-tape-conversion
# pitfall: the custom Keras loss calls err.numpy() to print the error; fit() traces the loss into a graph where the tensor is symbolic, so training fails with AttributeError: 'Tensor' object has no attribute 'numpy'
# expect: line 19 — .numpy() on a tensor inside a compiled Keras loss, which runs as a traced graph function
# checked: ran, reproduces (AttributeError: 'SymbolicTensor' object has no attribute 'numpy')
import tensorflow as tf
import numpy as np
import keras.backend as K
from tensorflow.keras.datasets import mnist
from tensorflow.keras.utils import to_categorical
from tensorflow.keras.models import Sequential
from tensorflow.keras.layers import Flatten, Dense, Conv2D, MaxPool2D, Input


def loss(yT, yP):
    err = yT - yP
    print(err.numpy())
    squaredError = tf.square(err)
    meanError = tf.reduce_mean(squaredError)
    return meanError


(xTrain, yTrain), (xTest, yTest) = mnist.load_data()

xTrain, xTest = xTrain / 255, xTest / 255
yTrain, yTest = to_categorical(yTrain, num_classes=10), to_categorical(yTest, num_classes=10)

model = Sequential()
model.add(Flatten(input_shape=(28, 28)))
model.add(Dense(100, activation='relu'))
model.add(Dense(10, activation='softmax'))
model.compile(optimizer='adam', loss=loss)
model.fit(xTrain, yTrain, epochs=1)
