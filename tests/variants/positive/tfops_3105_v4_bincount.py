# source: variant of 3105_lyt_tf_histogram_fixed_width.py
# framework: tf
# family: B
# kind: nondiff-op-on-loss-path
# pitfall: the histogram term quantizes the prediction to 0..255 integer levels and counts them with tf.math.bincount; the integer cast and the counting have no gradient, so the histogram loss never trains the model
# expect: line 14 — tf.math.bincount over integer levels of the prediction inside the loss
# checked: ran, reproduces (tape.gradient of the histogram loss returns [None, None])
import tensorflow as tf


def histogram_loss(y_true, y_pred, bins=256):
    def hist(img):
        levels = tf.cast(tf.clip_by_value(img, 0.0, 1.0) * (bins - 1), tf.int32)
        counts = tf.math.bincount(tf.reshape(levels, [-1]), minlength=bins, maxlength=bins)
        counts = tf.cast(counts, tf.float32)
        return counts / tf.reduce_sum(counts)
    return tf.reduce_mean(tf.abs(hist(y_true) - hist(y_pred)))


model = tf.keras.Sequential([tf.keras.Input((16, 16, 3)),
                             tf.keras.layers.Conv2D(3, 3, padding="same", activation="sigmoid")])
x = tf.random.uniform((2, 16, 16, 3))
with tf.GradientTape() as tape:
    loss = histogram_loss(x, model(x))
print(tape.gradient(loss, model.trainable_variables))  # [None, None]
