# source: https://github.com/tensorflow/docs/pull/1391
# framework: tf
# kind: tf-tape-scope
# negative: the tutorial as kept by the reviewers — the gradients are computed after the `with` block has closed both tapes
# mimics: positive/2221_tf_dcgan_gradients_inside_tape_block.py
# expect: no finding
# checked: parse-only
import tensorflow as tf

BATCH_SIZE = 256
noise_dim = 100
cross_entropy = tf.keras.losses.BinaryCrossentropy(from_logits=True)
generator = tf.keras.Sequential([tf.keras.layers.Dense(784)])
discriminator = tf.keras.Sequential([tf.keras.layers.Dense(1)])
generator_optimizer = tf.keras.optimizers.Adam(1e-4)
discriminator_optimizer = tf.keras.optimizers.Adam(1e-4)


def discriminator_loss(real_output, fake_output):
    real_loss = cross_entropy(tf.ones_like(real_output), real_output)
    fake_loss = cross_entropy(tf.zeros_like(fake_output), fake_output)
    return real_loss + fake_loss


def generator_loss(fake_output):
    return cross_entropy(tf.ones_like(fake_output), fake_output)


@tf.function
def train_step(images):
    noise = tf.random.normal([BATCH_SIZE, noise_dim])

    with tf.GradientTape() as gen_tape, tf.GradientTape() as disc_tape:
      generated_images = generator(noise, training=True)

      real_output = discriminator(images, training=True)
      fake_output = discriminator(generated_images, training=True)

      gen_loss = generator_loss(fake_output)
      disc_loss = discriminator_loss(real_output, fake_output)

    gradients_of_generator = gen_tape.gradient(gen_loss, generator.trainable_variables)
    gradients_of_discriminator = disc_tape.gradient(disc_loss, discriminator.trainable_variables)

    generator_optimizer.apply_gradients(zip(gradients_of_generator, generator.trainable_variables))
    discriminator_optimizer.apply_gradients(zip(gradients_of_discriminator, discriminator.trainable_variables))
