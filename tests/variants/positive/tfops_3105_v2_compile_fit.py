# source: variant of 3105_lyt_tf_histogram_fixed_width.py
# framework: tf
# family: B
# kind: nondiff-op-on-loss-path
# pitfall: the custom loss passed to model.compile is a histogram distance built from tf.histogram_fixed_width counts; the histogram op has no gradient, so fit() finds no gradient for any variable
# expect: line 14 — tf.histogram_fixed_width on the prediction inside the compiled loss
# checked: ran, reproduces (ValueError: No gradients provided for any variable)
import numpy as np
import tensorflow as tf


def hist_loss(y_true, y_pred, nbins=64):
    h_true = tf.cast(tf.histogram_fixed_width(y_true, [0.0, 1.0], nbins), tf.float32)
    h_pred = tf.cast(tf.histogram_fixed_width(y_pred, [0.0, 1.0], nbins), tf.float32)
    h_true = h_true / tf.reduce_sum(h_true)
    h_pred = h_pred / tf.reduce_sum(h_pred)
    return tf.reduce_mean(tf.square(h_true - h_pred))


model = tf.keras.Sequential([
    tf.keras.layers.Input(shape=(8, 8, 1)),
    tf.keras.layers.Conv2D(8, 3, padding="same", activation="relu"),
    tf.keras.layers.Conv2D(1, 3, padding="same", activation="sigmoid"),
])
model.compile(optimizer="adam", loss=hist_loss)
x = np.random.rand(4, 8, 8, 1).astype("float32")
model.fit(x, x, epochs=1, verbose=0)
