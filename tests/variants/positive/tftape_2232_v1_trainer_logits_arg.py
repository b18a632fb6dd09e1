# source: variant of 2232_tf_train_step_receives_precomputed_logits.py
# framework: tf
# family: B
# kind: tf-tape-scope
# pitfall: the fit loop computes the logits with self.model and hands them to train_step, which opens the tape only around the loss; the forward pass was never recorded, so every gradient is None
# expect: line 27 — the model's forward pass runs in fit(), before train_step opens the tape that differentiates the loss
# checked: ran, reproduces (ValueError: No gradients provided for any variable)
import tensorflow as tf


class Classifier:
    def __init__(self):
        self.model = tf.keras.Sequential([tf.keras.Input((5,)), tf.keras.layers.Dense(4)])
        self.loss_object = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
        self.optimizer = tf.keras.optimizers.Adam(1e-3)

    def train_step(self, logits, labels):
        with tf.GradientTape() as tape:
            loss = self.loss_object(labels, logits)
        grads = tape.gradient(loss, self.model.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.model.trainable_variables))
        return loss

    def fit(self, dataset, epochs=1):
        for _ in range(epochs):
            for x, y in dataset:
                logits = self.model(x, training=True)
                self.train_step(logits, y)


ds = tf.data.Dataset.from_tensor_slices((tf.random.normal((8, 5)), tf.zeros((8,), tf.int32))).batch(4)
Classifier().fit(ds)
