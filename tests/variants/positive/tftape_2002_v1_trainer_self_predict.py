# source: variant of 2002_tf_model_predict_in_tape.py
# framework: tf
# family: B
# kind: tf-tape-conversion
# pitfall: the trainer's step uses self.model.predict(x), which returns a NumPy array; the loss built from it inside the tape is disconnected from the model's variables
# expect: line 21 — self.model.predict(x) inside the tape leaves the graph (NumPy result)
# checked: ran, reproduces (ValueError: No gradients provided for any variable)
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
            y_pred = self.model.predict(x, verbose=0)
            loss = self.loss_fn(y, y_pred)
        grads = tape.gradient(loss, self.model.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.model.trainable_variables))
        return loss


model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(8, activation="relu"), keras.layers.Dense(1)])
trainer = Trainer(model)
x = np.random.rand(16, 2).astype("float32")
y = x.sum(axis=1, keepdims=True)
print(trainer.train_step(x, y))
