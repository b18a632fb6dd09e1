# source: variant of 2055_tf_custom_loss_count_nonzero_round.py
# framework: tf
# family: E
# kind: nondiff-op-on-loss-path
# pitfall: the custom loss is 1 - tf.keras.metrics.binary_accuracy(y, pred), i.e. the fraction of thresholded predictions equal to the labels; the threshold and equality inside have no gradient, so the tape returns None for every weight
# expect: line 17 — the loss is built from binary_accuracy, a thresholded equality with no gradient
# checked: ran, reproduces (gradients [None, None])
import tensorflow as tf


class Trainer:
    def __init__(self):
        self.model = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(1, activation="sigmoid")])
        self.optimizer = tf.keras.optimizers.Adam()

    def custom_loss(self, labels, prediction):
        return 1.0 - tf.reduce_mean(tf.keras.metrics.binary_accuracy(labels, prediction))

    def train_step(self, x, labels):
        with tf.GradientTape() as tape:
            prediction = self.model(x, training=True)
            loss = self.custom_loss(labels, prediction)
        grads = tape.gradient(loss, self.model.trainable_weights)
        print(grads)  # [None, None]
        return loss


Trainer().train_step(tf.random.normal((8, 4)), tf.ones((8, 1)))
