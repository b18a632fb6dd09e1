# source: variant of 3105_lyt_tf_histogram_fixed_width.py
# framework: tf
# kind: nondiff-op-on-loss-path
# negative: the maintainers' fix — a soft (Gaussian-kernel) histogram of the prediction, differentiable
# mimics: positive/3105_v2_compile_fit.py
# expect: no finding
# checked: ran (fit trains, finite loss)
import numpy as np
import tensorflow as tf


def soft_hist(img, nbins=64, sigma=0.02):
    centers = tf.linspace(0.0, 1.0, nbins)
    v = tf.reshape(img, [-1, 1])
    weights = tf.exp(-0.5 * tf.square((v - centers) / sigma))
    h = tf.reduce_sum(weights, axis=0)
    return h / (tf.reduce_sum(h) + 1e-8)


def hist_loss(y_true, y_pred):
    return tf.reduce_mean(tf.square(soft_hist(y_true) - soft_hist(y_pred)))


model = tf.keras.Sequential([
    tf.keras.layers.Input(shape=(8, 8, 1)),
    tf.keras.layers.Conv2D(8, 3, padding="same", activation="relu"),
    tf.keras.layers.Conv2D(1, 3, padding="same", activation="sigmoid"),
])
model.compile(optimizer="adam", loss=hist_loss)
x = np.random.rand(4, 8, 8, 1).astype("float32")
model.fit(x, x, epochs=1, verbose=0)
