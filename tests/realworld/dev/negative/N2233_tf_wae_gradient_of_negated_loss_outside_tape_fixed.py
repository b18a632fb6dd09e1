# source: https://github.com/tensorflow/tensorflow/issues/37141
# framework: tf
# kind: tf-tape-scope
# negative: the reporter's fix — the gradient is taken of latent_loss itself, the tensor the tape recorded
# mimics: positive/2233_tf_wae_gradient_of_negated_loss_outside_tape.py
# expect: no finding
# checked: parse-only
import tensorflow as tf


class WAE(tf.keras.Model):
    def __init__(self, enc, dec, disc):
        super().__init__()
        self.enc = enc
        self.dec = dec
        self.disc = disc
        self.disc_optimizer = tf.keras.optimizers.Adam(1e-4)

    def train_disc(self, x, z_prior):
        with tf.GradientTape() as disc_tape:
            z = self.enc(x)
            d_prior = self.disc(z_prior)
            d_z = self.disc(z)
            latent_loss = tf.reduce_mean(tf.math.log(d_prior + 1e-8) + tf.math.log(1. - d_z + 1e-8))
        self.disc_gradients = disc_gradients = disc_tape.gradient( latent_loss, self.disc.trainable_variables )
        self.disc_optimizer.apply_gradients(zip(disc_gradients, self.disc.trainable_variables))
        return latent_loss
