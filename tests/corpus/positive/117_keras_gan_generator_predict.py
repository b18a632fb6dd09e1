# source: https://www.tensorflow.org/tutorials/generative/dcgan
# family: A
# pitfall: the generator update calls generator.predict(noise) inside the GradientTape instead of generator(noise, training=True)
# expect: line 21 — predict() returns a NumPy array outside the tape: the generator loss has no path to the generator weights (gradients are None)

import tensorflow as tf
from tensorflow import keras

latent_dim = 64
generator = keras.Sequential([keras.layers.Dense(128, activation="relu"), keras.layers.Dense(784, activation="tanh")])
discriminator = keras.Sequential([keras.layers.Dense(128), keras.layers.LeakyReLU(0.2), keras.layers.Dense(1)])
generator.build((None, latent_dim))
discriminator.build((None, 784))
bce = keras.losses.BinaryCrossentropy(from_logits=True)
g_opt = keras.optimizers.Adam(2e-4)


def train_generator_step(batch_size=32):
    noise = tf.random.normal([batch_size, latent_dim])
    with tf.GradientTape() as tape:
        fake = generator.predict(noise, verbose=0)
        logits = discriminator(fake, training=False)
        g_loss = bce(tf.ones_like(logits), logits)
    grads = tape.gradient(g_loss, generator.trainable_variables)
    g_opt.apply_gradients(zip(grads, generator.trainable_variables))
    return g_loss


train_generator_step()
