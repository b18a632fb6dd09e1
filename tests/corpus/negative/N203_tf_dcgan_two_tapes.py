# source: https://www.tensorflow.org/tutorials/generative/dcgan
# family: B
# negative: DCGAN step opens one tape per network in a single with-statement; each tape is asked for exactly one gradient
# mimics: two gradient calls after one with-block
# expect: no finding

import tensorflow as tf

generator = tf.keras.Sequential([tf.keras.layers.Dense(128, activation="relu"), tf.keras.layers.Dense(784, activation="tanh")])
discriminator = tf.keras.Sequential([tf.keras.layers.Dense(128, activation="relu"), tf.keras.layers.Dense(1)])
cross_entropy = tf.keras.losses.BinaryCrossentropy(from_logits=True)
g_opt, d_opt = tf.keras.optimizers.Adam(1e-4), tf.keras.optimizers.Adam(1e-4)


@tf.function
def train_step(images):
    noise = tf.random.normal([tf.shape(images)[0], 100])
    with tf.GradientTape() as gen_tape, tf.GradientTape() as disc_tape:
        fake = generator(noise, training=True)
        real_out = discriminator(images, training=True)
        fake_out = discriminator(fake, training=True)
        g_loss = cross_entropy(tf.ones_like(fake_out), fake_out)
        d_loss = cross_entropy(tf.ones_like(real_out), real_out) + cross_entropy(tf.zeros_like(fake_out), fake_out)
    g_grads = gen_tape.gradient(g_loss, generator.trainable_variables)
    d_grads = disc_tape.gradient(d_loss, discriminator.trainable_variables)
    g_opt.apply_gradients(zip(g_grads, generator.trainable_variables))
    d_opt.apply_gradients(zip(d_grads, discriminator.trainable_variables))


train_step(tf.random.normal([16, 784]))
