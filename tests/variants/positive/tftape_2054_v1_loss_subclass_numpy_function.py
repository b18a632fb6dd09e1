# source: variant of 2054_keras_spearman_loss_numpy_function_rankdata.py
# framework: tf
# family: B
# kind: tf-tape-conversion
# pitfall: a keras.losses.Loss subclass ranks the predictions with scipy's rankdata through tf.numpy_function; numpy_function has no gradient, so fit() raises No gradients provided for any variable
# expect: line 20 — tf.numpy_function(rankdata, ...) on y_pred inside the loss: the ranks carry no gradient back to the model
# checked: ran, reproduces (ValueError: No gradients provided for any variable)
import numpy as np
import tensorflow as tf
import keras
from scipy.stats import rankdata


class SpearmanLoss(keras.losses.Loss):
    def call(self, y_true, y_pred):
        y_true = tf.reshape(tf.cast(y_true, tf.float32), [-1])
        y_pred = tf.reshape(y_pred, [-1])
        n = tf.cast(tf.size(y_pred), tf.float32)
        rank_true = tf.numpy_function(lambda a: rankdata(a).astype(np.float32), [y_true], tf.float32)
        rank_pred = tf.numpy_function(lambda a: rankdata(a).astype(np.float32), [y_pred], tf.float32)
        return -(1.0 - 6.0 * tf.reduce_sum(tf.square(rank_true - rank_pred)) / (n ** 3 - n))


model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
model.compile(optimizer="adam", loss=SpearmanLoss())
model.fit(np.random.rand(16, 3).astype("float32"), np.random.rand(16, 1).astype("float32"), epochs=1, batch_size=8, verbose=0)
