# source: https://github.com/tensorflow/tensorflow/issues/37141
# framework: tf
# family: B
# kind: tf-tape-scope
# pitfall: the discriminator's gradient is asked for -latent_loss; the negation is evaluated at the gradient call, after the `with disc_tape` block has closed, so the tape never recorded it and returns None for every discriminator variable ("No gradients provided"; the answer: the computation is performed outside the tape context; the reporter's fix: drop the minus sign, i.e. differentiate the recorded latent_loss)
# expect: line 25 — disc_tape.gradient of an expression (-latent_loss) built after the tape context closed
# checked: parse-only; the thread quotes only the gradient line (with its fix), the WAE train_step around it is a reduced stand-in
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
        self.disc_gradients = disc_gradients = disc_tape.gradient( -latent_loss, self.disc.trainable_variables )
        self.disc_optimizer.apply_gradients(zip(disc_gradients, self.disc.trainable_variables))
        return latent_loss
