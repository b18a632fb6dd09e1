# source: https://github.com/keras-team/keras/issues/5521
# framework: tf
# family: E
# kind: keras-lambda-nondiff
# pitfall: a Lambda layer samples with tf.floor, whose registered gradient is None, so fitting fails with "None values not supported"
# expect: line 15 — tf.floor inside the function used by the Lambda layer has no gradient
# checked: parse only (Keras 2 / TF1 names; the Lambda is only traced at fit time)
import tensorflow as tf
from keras.models import Sequential
from keras.layers import Dense, Lambda


def FloorSampling(x):
    """Returns a tensor which is only consist of several 1 and several 0."""
    return tf.floor(x + tf.random_uniform(tf.shape(x), 0, 1))


model = Sequential()
model.add(Dense(88, input_shape=(128,), activation='sigmoid'))
model.add(Lambda(FloorSampling,output_shape=lambda x:x))
model.compile(loss='binary_crossentropy', optimizer='adam')
