# source: fixed twin of 2002_v1_trainer_self_predict.py
# framework: tf
# family: B
# kind: tf-tape-conversion
# pitfall: none (the trainer calls self.model(x, training=True) inside the tape)
# checked: ran, all gradients present
import numpy as np
import tensorflow as tf
from tensorflow import keras


class Trainer:
    def __init__(self, model, lr=1e-2):
        self.model = model
        self.optimizer = keras.optimizers.Adam(learning_rate=lr)
        self.loss_fn = keras.losses.MeanSquaredError()

    def train_step(self, x, y):
        with tf.GradientTape() as tape:
            y_pred = self.model(x, training=True)
            loss = self.loss_fn(y, y_pred)
        grads = tape.gradient(loss, self.model.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.model.trainable_variables))
        return loss

    def evaluate(self, x):
        return self.model.predict(x, verbose=0)


model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(8, activation="relu"), keras.layers.Dense(1)])
trainer = Trainer(model)
x = np.random.rand(16, 2).astype("float32")
y = x.sum(axis=1, keepdims=True)
print(trainer.train_step(x, y), trainer.evaluate(x).shape)
