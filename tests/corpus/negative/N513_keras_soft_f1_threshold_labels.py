# source: https://www.kaggle.com/code/rejpalcz/best-loss-function-for-f1-score-metric
# family: E
# negative: soft-F1 Keras loss: only y_true (labels) is thresholded with a comparison; TP/FP/FN are soft counts on y_pred, so the loss is differentiable
# mimics: tf.cast(... > 0.5) inside a custom Keras loss
# expect: no finding

import tensorflow as tf
from tensorflow import keras


def soft_f1_loss(y_true, y_pred):
    y_true = tf.cast(y_true > 0.5, y_pred.dtype)
    tp = tf.reduce_sum(y_true * y_pred, axis=0)
    fp = tf.reduce_sum((1 - y_true) * y_pred, axis=0)
    fn = tf.reduce_sum(y_true * (1 - y_pred), axis=0)
    f1 = 2 * tp / (2 * tp + fp + fn + keras.backend.epsilon())
    return 1 - tf.reduce_mean(f1)


model = keras.Sequential([keras.layers.Dense(64, activation="relu"), keras.layers.Dense(28, activation="sigmoid")])
model.compile(optimizer="adam", loss=soft_f1_loss)
x = tf.random.normal((256, 40))
y = tf.random.uniform((256, 28))
model.fit(x, y, epochs=1, verbose=0)
