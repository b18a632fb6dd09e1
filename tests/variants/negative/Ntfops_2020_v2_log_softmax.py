# source: variant of 2020_tf1_log_of_softmax_cross_entropy.py
# framework: tf
# kind: nan-grad-singular-point
# negative: the Trainer uses tf.nn.log_softmax on the logits (stable, no log of a 0 probability)
# mimics: positive/2020_v2_trainer_nn_softmax.py
# expect: no finding
# checked: ran (finite loss and gradients)
import numpy as np
import tensorflow as tf


class Trainer:
    def __init__(self, model, lr=0.01):
        self.model = model
        self.optimizer = tf.keras.optimizers.SGD(lr)

    def compute_loss(self, x, y):
        logits = self.model(x, training=True)
        log_probs = tf.nn.log_softmax(logits)
        return tf.reduce_mean(-tf.reduce_sum(y * log_probs, axis=1))

    def train_step(self, x, y):
        with tf.GradientTape() as tape:
            loss = self.compute_loss(x, y)
        grads = tape.gradient(loss, self.model.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.model.trainable_variables))
        return loss, grads


model = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(10)])
model.layers[0].kernel.assign(np.eye(4, 10, dtype=np.float32) * 100.0)
loss, grads = Trainer(model).train_step(np.full((1, 4), 10.0, np.float32), np.eye(10, dtype=np.float32)[[5]])
print(loss.numpy(), np.isnan(grads[0].numpy()).any())
