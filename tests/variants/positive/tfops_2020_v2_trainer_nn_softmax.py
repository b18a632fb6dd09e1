# source: variant of 2020_tf1_log_of_softmax_cross_entropy.py
# framework: tf
# family: E
# kind: nan-grad-singular-point
# pitfall: the Trainer computes probabilities with tf.nn.softmax on the logits and then the cross entropy as -sum(y * tf.math.log(probs)); once a probability underflows to 0 the log is -inf and gradients become NaN
# expect: line 20 — tf.math.log(probs) of a tf.nn.softmax output that can reach 0
# checked: ran, reproduces (loss nan, kernel gradient NaN for a large-logit input)
import numpy as np
import tensorflow as tf


class Trainer:
    def __init__(self, model, lr=0.01):
        self.model = model
        self.optimizer = tf.keras.optimizers.SGD(lr)

    def compute_loss(self, x, y):
        logits = self.model(x, training=True)
        probs = tf.nn.softmax(logits)
        return tf.reduce_mean(-tf.reduce_sum(y * tf.math.log(probs), axis=1))

    def train_step(self, x, y):
        with tf.GradientTape() as tape:
            loss = self.compute_loss(x, y)
        grads = tape.gradient(loss, self.model.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.model.trainable_variables))
        return loss, grads


model = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(10)])
model.layers[0].kernel.assign(np.eye(4, 10, dtype=np.float32) * 100.0)
loss, grads = Trainer(model).train_step(np.full((1, 4), 10.0, np.float32), np.eye(10, dtype=np.float32)[[5]])
print(loss.numpy(), np.isnan(grads[0].numpy()).any())  # nan True
