# source: variant of 3105_lyt_tf_histogram_fixed_width.py
# framework: tf
# family: B
# kind: nondiff-op-on-loss-path
# pitfall: a keras.losses.Loss subclass compares tf.histogram_fixed_width bin counts of the prediction and target; the histogram op has no gradient, so the histogram term never trains the model
# expect: line 19 — tf.histogram_fixed_width(y_pred, ...) inside HistogramLoss.call
# checked: ran, reproduces (tape.gradient returns [None, None] for the Conv2D kernel and bias)
import tensorflow as tf
from tensorflow import keras


class HistogramLoss(keras.losses.Loss):
    def __init__(self, bins=256, name="histogram_loss"):
        super().__init__(name=name)
        self.bins = bins

    def call(self, y_true, y_pred):
        true_hist = tf.histogram_fixed_width(y_true, [0.0, 1.0], nbins=self.bins)
        pred_hist = tf.histogram_fixed_width(y_pred, [0.0, 1.0], nbins=self.bins)
        true_hist = tf.cast(true_hist, tf.float32) / tf.cast(tf.size(y_true), tf.float32)
        pred_hist = tf.cast(pred_hist, tf.float32) / tf.cast(tf.size(y_pred), tf.float32)
        return tf.reduce_mean(tf.abs(true_hist - pred_hist))


class Trainer:
    def __init__(self):
        self.model = keras.Sequential([
            keras.Input((16, 16, 3)),
            keras.layers.Conv2D(3, 3, padding="same", activation="sigmoid"),
        ])
        self.loss_fn = HistogramLoss()
        self.optimizer = keras.optimizers.Adam(1e-4)

    def train_step(self, x, y):
        with tf.GradientTape() as tape:
            y_pred = self.model(x, training=True)
            loss = self.loss_fn(y, y_pred)
        grads = tape.gradient(loss, self.model.trainable_variables)
        print(grads)  # [None, None]
        return loss


if __name__ == "__main__":
    t = Trainer()
    t.train_step(tf.random.uniform((2, 16, 16, 3)), tf.random.uniform((2, 16, 16, 3)))
