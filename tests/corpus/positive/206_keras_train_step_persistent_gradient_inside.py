# source: https://www.tensorflow.org/api_docs/python/tf/GradientTape
# family: B
# pitfall: custom keras.Model.train_step with a persistent tape calls tape.gradient for both sub-networks inside the with-block
# expect: line 25 — gradient() on a persistent tape inside its context records the gradient computation itself (TF warns: extra memory/CPU); move it after the with-block

import tensorflow as tf
from tensorflow import keras


class TwoHeaded(keras.Model):
    def __init__(self):
        super().__init__()
        self.encoder = keras.Sequential([keras.layers.Dense(64, activation="relu")])
        self.head = keras.layers.Dense(1)
        self.enc_opt = keras.optimizers.Adam(1e-4)
        self.head_opt = keras.optimizers.Adam(1e-3)

    def call(self, x):
        return self.head(self.encoder(x))

    def train_step(self, data):
        x, y = data
        with tf.GradientTape(persistent=True) as tape:
            loss = tf.reduce_mean(tf.square(self(x, training=True) - y))
            enc_grads = tape.gradient(loss, self.encoder.trainable_variables)
            head_grads = tape.gradient(loss, self.head.trainable_variables)
        self.enc_opt.apply_gradients(zip(enc_grads, self.encoder.trainable_variables))
        self.head_opt.apply_gradients(zip(head_grads, self.head.trainable_variables))
        del tape
        return {"loss": loss}
