# source: variant of 2045_keras_dice_loss_round_clip.py
# framework: tf
# family: E
# kind: nondiff-op-on-loss-path
# pitfall: a keras.losses.Loss Dice subclass rounds the clipped predictions with K.round before the overlap; round has no gradient, so fit() finds no gradient for any variable
# expect: line 20 — K.round of the predictions inside the loss class
# checked: ran, reproduces (ValueError: No gradients provided for any variable)
import numpy as np
import tensorflow as tf
from tensorflow.keras import backend as K


class DiceLoss(tf.keras.losses.Loss):
    def __init__(self, threshold_low=0.7, **kwargs):
        super().__init__(**kwargs)
        self.low = threshold_low

    def call(self, y_true, y_pred):
        yt = K.flatten(y_true)
        yp = K.round(K.clip(K.flatten(y_pred), self.low, 1.0))
        total = K.sum(yt) + K.sum(yp)
        return 1.0 - 2.0 * K.sum(yt * yp) / (total + K.epsilon())


model = tf.keras.Sequential([tf.keras.Input((8, 8, 1)),
                             tf.keras.layers.Conv2D(1, 3, padding="same", activation="sigmoid")])
model.compile(optimizer="adam", loss=DiceLoss())
model.fit(np.random.rand(4, 8, 8, 1), (np.random.rand(4, 8, 8, 1) > 0.5).astype("float32"), verbose=0)
