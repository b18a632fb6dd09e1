# source: variant of 3105_lyt_tf_histogram_fixed_width.py
# framework: tf
# family: B
# kind: nondiff-op-on-loss-path
# pitfall: the histogram term of a combined enhancement loss is built from tf.histogram_fixed_width counts (computed in a helper), so that term contributes no gradient; only the L1 term trains
# expect: line 12 — tf.histogram_fixed_width(pred, ...) in the helper called from the combined loss
# checked: ran, reproduces (gradient of the histogram term alone w.r.t. the model is [None, None])
import tensorflow as tf


def _normalized_hist(img, nbins=256):
    counts = tf.histogram_fixed_width(img, value_range=(0.0, 1.0), nbins=nbins)
    counts = tf.cast(counts, tf.float32)
    return counts / tf.reduce_sum(counts)


def combined_loss(y_true, y_pred, w_l1=1.0, w_hist=0.05):
    l1 = tf.reduce_mean(tf.abs(y_true - y_pred))
    hist = tf.reduce_mean(tf.abs(_normalized_hist(y_true) - _normalized_hist(y_pred)))
    return w_l1 * l1 + w_hist * hist


model = tf.keras.Sequential([tf.keras.layers.Input((16, 16, 3)),
                             tf.keras.layers.Conv2D(3, 3, padding="same", activation="sigmoid")])
x = tf.random.uniform((2, 16, 16, 3))
y = tf.random.uniform((2, 16, 16, 3))
with tf.GradientTape() as tape:
    pred = model(x)
    hist_only = tf.reduce_mean(tf.abs(_normalized_hist(y) - _normalized_hist(pred)))
print(tape.gradient(hist_only, model.trainable_variables))  # [None, None]
