# source: variant of 2055_tf_custom_loss_count_nonzero_round.py
# framework: tf
# kind: nondiff-op-on-loss-path
# negative: the Trainer differentiates a cross entropy; the argmax accuracy is computed outside the tape, for logging
# mimics: positive/2055_v2_argmax_equal_accuracy.py
# expect: no finding
# checked: ran (gradients not None)
import tensorflow as tf


class Trainer:
    def __init__(self, model, optimizer):
        self.model = model
        self.optimizer = optimizer
        self.xent = tf.keras.losses.CategoricalCrossentropy(from_logits=True)

    def train_step(self, x, y):
        with tf.GradientTape() as tape:
            logits = self.model(x, training=True)
            loss = self.xent(y, logits)
        grads = tape.gradient(loss, self.model.trainable_weights)
        self.optimizer.apply_gradients(zip(grads, self.model.trainable_weights))
        hits = tf.equal(tf.argmax(logits, axis=-1), tf.argmax(y, axis=-1))
        accuracy = tf.reduce_mean(tf.cast(hits, tf.float32))
        return loss, accuracy


t = Trainer(tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(3)]), tf.keras.optimizers.Adam())
print(t.train_step(tf.random.normal((8, 4)), tf.one_hot([0, 1, 2, 0, 1, 2, 0, 1], 3)))
