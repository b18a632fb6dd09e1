# source: fixed twin of 2039_v1_trainer_method_creates_optimizer.py
# framework: tf
# family: F
# kind: optimizer-created-in-step
# pitfall: none (the optimizer is built once in __init__)
# checked: ran, iterations count up
import tensorflow as tf


class Trainer:
    def __init__(self, model, lr=1e-3):
        self.model = model
        self.optimizer = tf.keras.optimizers.Adam(lr)
        self.loss_fn = tf.keras.losses.MeanSquaredError()

    def train_step(self, x, y):
        with tf.GradientTape() as tape:
            loss = self.loss_fn(y, self.model(x, training=True))
        grads = tape.gradient(loss, self.model.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.model.trainable_variables))
        return int(self.optimizer.iterations)


trainer = Trainer(tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(1)]))
print([trainer.train_step(tf.random.normal((4, 3)), tf.random.normal((4, 1))) for _ in range(3)])
