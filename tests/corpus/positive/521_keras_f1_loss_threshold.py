# source: https://www.kaggle.com/code/rejpalcz/best-loss-function-for-f1-score-metric
# family: E
# pitfall: custom Keras F1 loss binarises predictions with tf.cast(y_pred > 0.5, "float32") before counting TP/FP/FN
# expect: line 11 — the comparison is the only path from y_pred to the loss and has no gradient: "No gradients provided for any variable"; use soft counts on y_pred

import tensorflow as tf
from tensorflow import keras


def f1_loss(y_true, y_pred):
    y_hat = tf.cast(y_pred > 0.5, "float32")
    tp = tf.reduce_sum(y_true * y_hat, axis=0)
    fp = tf.reduce_sum((1 - y_true) * y_hat, axis=0)
    fn = tf.reduce_sum(y_true * (1 - y_hat), axis=0)
    f1 = 2 * tp / (2 * tp + fp + fn + keras.backend.epsilon())
    return 1 - tf.reduce_mean(f1)


model = keras.Sequential([keras.layers.Dense(64, activation="relu"), keras.layers.Dense(28, activation="sigmoid")])
model.compile(optimizer="adam", loss=f1_loss)
x = tf.random.normal((256, 40))
y = tf.cast(tf.random.uniform((256, 28)) > 0.8, tf.float32)
model.fit(x, y, epochs=1, verbose=0)
