# source: variant of 2002_tf_model_predict_in_tape.py
# framework: tf
# family: B
# kind: tf-tape-conversion
# pitfall: inside a custom keras.Model.train_step the prediction is passed through np.asarray before the loss; the NumPy array is a constant for the tape, so no trainable weight gets a gradient
# expect: line 25 — np.asarray(self(x, training=True)) inside the tape leaves the graph
# checked: ran eagerly (run_eagerly=True; in a traced train_step np.asarray raises instead), reproduces (ValueError: No gradients provided for any variable)
import numpy as np
import tensorflow as tf
import keras


class Regressor(keras.Model):
    def __init__(self):
        super().__init__()
        self.hidden = keras.layers.Dense(8, activation="relu")
        self.out = keras.layers.Dense(1)

    def call(self, x):
        return self.out(self.hidden(x))

    def train_step(self, data):
        x, y = data
        with tf.GradientTape() as tape:
            y_pred = np.asarray(self(x, training=True))
            loss = tf.reduce_mean(tf.square(y - y_pred))
        grads = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
        return {"loss": loss}


model = Regressor()
model.compile(optimizer="adam", run_eagerly=True)
x = np.random.rand(32, 2).astype("float32")
model.fit(x, x.sum(1, keepdims=True), epochs=1, batch_size=8, verbose=0)
