# source: variant of 2045_keras_dice_loss_round_clip.py
# framework: tf
# kind: nondiff-op-on-loss-path
# negative: the soft Dice loss uses the probabilities directly; the 0.5 threshold is used only in the metric
# mimics: positive/2045_v2_threshold_cast_dice.py
# expect: no finding
# checked: ran (fit trains)
import numpy as np
import tensorflow as tf


def dice_coef(y_true, y_pred, smooth=1.0):
    inter = tf.reduce_sum(y_true * y_pred, axis=[1, 2, 3])
    union = tf.reduce_sum(y_true, axis=[1, 2, 3]) + tf.reduce_sum(y_pred, axis=[1, 2, 3])
    return tf.reduce_mean((2.0 * inter + smooth) / (union + smooth))


def hard_dice(y_true, y_pred):
    return dice_coef(y_true, tf.cast(y_pred > 0.5, tf.float32))


def dice_loss(y_true, y_pred):
    return 1.0 - dice_coef(y_true, y_pred)


model = tf.keras.Sequential([tf.keras.Input((8, 8, 1)),
                             tf.keras.layers.Conv2D(1, 3, padding="same", activation="sigmoid")])
model.compile(optimizer="adam", loss=dice_loss, metrics=[hard_dice])
model.fit(np.random.rand(4, 8, 8, 1), (np.random.rand(4, 8, 8, 1) > 0.5).astype("float32"), verbose=0)
