# source: variant of 2039_tf_function_optimizer_created_each_step.py
# framework: tf
# family: F
# kind: optimizer-created-in-step
# pitfall: the trainer's train_step builds a new Adam optimizer on every call, so its moment estimates restart each step (and under tf.function its variables are created on a non-first call)
# expect: line 18 — the optimizer is constructed inside the per-step training method
# checked: ran, reproduces (a fresh optimizer each step: optimizer.iterations is 1 after every step)
import tensorflow as tf


class Trainer:
    def __init__(self, model, lr=1e-3):
        self.model = model
        self.lr = lr
        self.loss_fn = tf.keras.losses.MeanSquaredError()

    def train_step(self, x, y):
        optimizer = tf.keras.optimizers.Adam(self.lr)
        with tf.GradientTape() as tape:
            loss = self.loss_fn(y, self.model(x, training=True))
        grads = tape.gradient(loss, self.model.trainable_variables)
        optimizer.apply_gradients(zip(grads, self.model.trainable_variables))
        return int(optimizer.iterations)


trainer = Trainer(tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(1)]))
print([trainer.train_step(tf.random.normal((4, 3)), tf.random.normal((4, 1))) for _ in range(3)])
