# source: variant of 3053_tf_vae_forward_outside_tape.py
# framework: tf
# family: B
# kind: tf-tape-scope
# pitfall: in a custom keras.Model.train_step the forward pass self(x, training=True) runs before the GradientTape opens; inside the tape only the loss arithmetic is recorded, so every gradient is None
# expect: line 28 — the forward pass self(x, training=True) is computed before the `with tf.GradientTape()` block
# checked: ran, reproduces (ValueError: No gradients provided for any variable)
import numpy as np
import tensorflow as tf
import keras


class VAE(keras.Model):
    def __init__(self, latent_dim=2):
        super().__init__()
        self.enc = keras.layers.Dense(2 * latent_dim)
        self.dec = keras.layers.Dense(6)
        self.latent_dim = latent_dim

    def call(self, x):
        h = self.enc(x)
        mu, log_var = h[:, :self.latent_dim], h[:, self.latent_dim:]
        z = mu + tf.exp(0.5 * log_var) * tf.random.normal(tf.shape(mu))
        return self.dec(z), mu, log_var

    def train_step(self, data):
        x = data
        x_recon, mu, log_var = self(x, training=True)
        with tf.GradientTape() as tape:
            recon = tf.reduce_mean(tf.reduce_sum(tf.square(x - x_recon), axis=1))
            kl = tf.reduce_mean(-0.5 * tf.reduce_sum(1 + log_var - tf.square(mu) - tf.exp(log_var), axis=1))
            loss = recon + kl
        grads = tape.gradient(loss, self.trainable_weights)
        self.optimizer.apply_gradients(zip(grads, self.trainable_weights))
        return {"loss": loss}


model = VAE()
model.compile(optimizer=keras.optimizers.Adam(1e-3))
model.fit(np.random.rand(16, 6).astype("float32"), epochs=1, batch_size=8, verbose=0)
