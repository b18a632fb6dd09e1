# source: variant of 2045_keras_dice_loss_round_clip.py
# framework: tf
# family: E
# kind: nondiff-op-on-loss-path
# pitfall: the Dice loss passed to model.compile rounds the clipped predictions with tf.round, whose gradient is None, so fit() finds no gradient for any variable
# expect: line 14 — tf.round of the predictions inside the loss
# checked: ran, reproduces (ValueError: No gradients provided for any variable)
import numpy as np
import tensorflow as tf


def dice_loss(y_true, y_pred, smooth=1.0):
    yt = tf.reshape(y_true, [-1])
    yp = tf.round(tf.clip_by_value(tf.reshape(y_pred, [-1]), 0.0, 1.0))
    intersection = tf.reduce_sum(yt * yp)
    return 1.0 - (2.0 * intersection + smooth) / (tf.reduce_sum(yt) + tf.reduce_sum(yp) + smooth)


model = tf.keras.Sequential([tf.keras.Input((8, 8, 1)),
                             tf.keras.layers.Conv2D(1, 3, padding="same", activation="sigmoid")])
model.compile(optimizer="adam", loss=dice_loss)
model.fit(np.random.rand(4, 8, 8, 1), (np.random.rand(4, 8, 8, 1) > 0.5).astype("float32"), verbose=0)
