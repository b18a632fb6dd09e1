# source: https://github.com/tensorflow/docs/pull/1391
# framework: tf
# family: B
# kind: tf-tape-scope
# pitfall: the PR indents the two gradient computations of the DCGAN train_step into the body of the `with gen_tape, disc_tape` block; gen_tape.gradient then runs while disc_tape is still recording, so the generator's backward ops are recorded on the discriminator tape (the reviewer: "the gradient calculation should happen outside the scope of the context manager. If you put it inside, then the tape will track the gradients for every batch which can result in an OOM error")
# expect: line 42 — gen_tape.gradient called inside the `with` that keeps disc_tape recording
# checked: parse-only; the tutorial's train_step with the PR's indentation, models and losses are small stand-ins
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
