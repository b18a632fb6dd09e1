# source: variant of 3053_tf_vae_forward_outside_tape.py
# framework: tf
# family: B
# kind: tf-tape-scope
# pitfall: the trainer computes the predictions with self.model before opening the tape; the tape records only the loss on the finished predictions, so the gradients for the model's variables are None
# expect: line 19 — logits = self.model(x) runs before (outside) the `with tf.GradientTape()` block
# checked: ran, reproduces (ValueError: No gradients provided for any variable)
import tensorflow as tf


class Trainer:
    def __init__(self, model, optimizer, loss_fn):
        self.model = model
        self.optimizer = optimizer
        self.loss_fn = loss_fn

    @tf.function
    def train_step(self, x, y):
        logits = self.model(x, training=True)
        with tf.GradientTape() as tape:
            loss = self.loss_fn(y, logits)
        grads = tape.gradient(loss, self.model.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.model.trainable_variables))
        return loss


model = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(3)])
trainer = Trainer(model, tf.keras.optimizers.Adam(1e-3),
                  tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
trainer.train_step(tf.random.normal((8, 4)), tf.zeros((8,), tf.int32))
