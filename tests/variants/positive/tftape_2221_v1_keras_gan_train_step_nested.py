# source: variant of 2221_tf_dcgan_gradients_inside_tape_block.py
# framework: tf
# family: B
# kind: tf-tape-scope
# pitfall: in a keras.Model GAN train_step both gradient calls are indented into the `with g_tape, d_tape` block; g_tape.gradient runs while d_tape is still recording, so the generator's backward ops are recorded on the discriminator tape (memory grows, wasted work)
# expect: line 35 — g_tape.gradient called inside the `with` that keeps d_tape recording
# checked: ran (trains; d_tape records the generator's gradient computation as well — no error, the reviewer's OOM concern is the symptom)
import numpy as np
import tensorflow as tf
import keras


class GAN(keras.Model):
    def __init__(self, latent_dim=4):
        super().__init__()
        self.latent_dim = latent_dim
        self.generator = keras.Sequential([keras.Input((latent_dim,)), keras.layers.Dense(6)])
        self.discriminator = keras.Sequential([keras.Input((6,)), keras.layers.Dense(1)])
        self.bce = keras.losses.BinaryCrossentropy(from_logits=True)

    def compile(self, g_optimizer, d_optimizer):
        super().compile()
        self.g_optimizer = g_optimizer
        self.d_optimizer = d_optimizer

    def train_step(self, real_images):
        batch_size = tf.shape(real_images)[0]
        noise = tf.random.normal((batch_size, self.latent_dim))
        with tf.GradientTape() as g_tape, tf.GradientTape() as d_tape:
            fake_images = self.generator(noise, training=True)
            real_logits = self.discriminator(real_images, training=True)
            fake_logits = self.discriminator(fake_images, training=True)
            g_loss = self.bce(tf.ones_like(fake_logits), fake_logits)
            d_loss = self.bce(tf.ones_like(real_logits), real_logits) + self.bce(tf.zeros_like(fake_logits), fake_logits)
            g_grads = g_tape.gradient(g_loss, self.generator.trainable_weights)
            d_grads = d_tape.gradient(d_loss, self.discriminator.trainable_weights)
        self.g_optimizer.apply_gradients(zip(g_grads, self.generator.trainable_weights))
        self.d_optimizer.apply_gradients(zip(d_grads, self.discriminator.trainable_weights))
        return {"g_loss": g_loss, "d_loss": d_loss}


gan = GAN()
gan.compile(keras.optimizers.Adam(1e-4), keras.optimizers.Adam(1e-4))
gan.fit(np.random.rand(16, 6).astype("float32"), epochs=1, batch_size=8, verbose=0)
