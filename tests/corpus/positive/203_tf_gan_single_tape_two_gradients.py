# source: https://www.tensorflow.org/tutorials/generative/dcgan
# family: B
# pitfall: GAN step records generator and discriminator losses on one non-persistent tape and calls tape.gradient twice
# expect: line 23 — a non-persistent GradientTape can compute one set of gradients; the second call raises RuntimeError

import tensorflow as tf

generator = tf.keras.Sequential([tf.keras.layers.Dense(128, activation="relu"), tf.keras.layers.Dense(784, activation="tanh")])
discriminator = tf.keras.Sequential([tf.keras.layers.Dense(128, activation="relu"), tf.keras.layers.Dense(1)])
cross_entropy = tf.keras.losses.BinaryCrossentropy(from_logits=True)
g_opt, d_opt = tf.keras.optimizers.Adam(1e-4), tf.keras.optimizers.Adam(1e-4)


def train_step(images, noise_dim=100):
    noise = tf.random.normal([images.shape[0], noise_dim])
    with tf.GradientTape() as tape:
        fake = generator(noise, training=True)
        real_out = discriminator(images, training=True)
        fake_out = discriminator(fake, training=True)
        g_loss = cross_entropy(tf.ones_like(fake_out), fake_out)
        d_loss = cross_entropy(tf.ones_like(real_out), real_out) + cross_entropy(tf.zeros_like(fake_out), fake_out)
    g_grads = tape.gradient(g_loss, generator.trainable_variables)
    d_grads = tape.gradient(d_loss, discriminator.trainable_variables)
    g_opt.apply_gradients(zip(g_grads, generator.trainable_variables))
    d_opt.apply_gradients(zip(d_grads, discriminator.trainable_variables))


train_step(tf.random.normal([16, 784]))
