# source: variant of 2055_tf_custom_loss_count_nonzero_round.py
# framework: tf
# family: E
# kind: nondiff-op-on-loss-path
# pitfall: the Trainer's loss is 1 - accuracy computed as reduce_mean(cast(equal(argmax(pred), argmax(y)))); argmax and equality have no gradient, so tape.gradient returns None for every weight
# expect: line 17 — the loss is built from an equality of argmax predictions, which is not differentiable
# checked: ran, reproduces (gradients [None, None])
import tensorflow as tf


class Trainer:
    def __init__(self, model, optimizer):
        self.model = model
        self.optimizer = optimizer

    def loss_fn(self, y, logits):
        hits = tf.equal(tf.argmax(logits, axis=-1), tf.argmax(y, axis=-1))
        return 1.0 - tf.reduce_mean(tf.cast(hits, tf.float32))

    def train_step(self, x, y):
        with tf.GradientTape() as tape:
            logits = self.model(x, training=True)
            loss = self.loss_fn(y, logits)
        grads = tape.gradient(loss, self.model.trainable_weights)
        print(grads)  # [None, None]
        return loss


t = Trainer(tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(3)]), tf.keras.optimizers.Adam())
t.train_step(tf.random.normal((8, 4)), tf.one_hot([0, 1, 2, 0, 1, 2, 0, 1], 3))
