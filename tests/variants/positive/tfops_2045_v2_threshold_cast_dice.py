# source: variant of 2045_keras_dice_loss_round_clip.py
# framework: tf
# family: E
# kind: nondiff-op-on-loss-path
# pitfall: the Dice loss binarizes the predictions with tf.cast(y_pred > 0.5, tf.float32) before the overlap; the comparison has no gradient, so fit() finds no gradient for any variable
# expect: line 13 — the `y_pred > 0.5` hard threshold of the predictions inside the loss
# checked: ran, reproduces (ValueError: No gradients provided for any variable)
import numpy as np
import tensorflow as tf


def dice_coef(y_true, y_pred, smooth=1.0):
    y_pred_bin = tf.cast(y_pred > 0.5, tf.float32)
    inter = tf.reduce_sum(y_true * y_pred_bin, axis=[1, 2, 3])
    union = tf.reduce_sum(y_true, axis=[1, 2, 3]) + tf.reduce_sum(y_pred_bin, axis=[1, 2, 3])
    return tf.reduce_mean((2.0 * inter + smooth) / (union + smooth))


def dice_loss(y_true, y_pred):
    return 1.0 - dice_coef(y_true, y_pred)


model = tf.keras.Sequential([tf.keras.Input((8, 8, 1)),
                             tf.keras.layers.Conv2D(1, 3, padding="same", activation="sigmoid")])
model.compile(optimizer="adam", loss=dice_loss, metrics=[dice_coef])
model.fit(np.random.rand(4, 8, 8, 1), (np.random.rand(4, 8, 8, 1) > 0.5).astype("float32"), verbose=0)
