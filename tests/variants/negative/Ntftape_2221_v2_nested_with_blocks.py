# source: fixed twin of 2221_v2_nested_with_blocks.py
# framework: tf
# family: B
# kind: tf-tape-scope
# pitfall: none (the generator's gradient is taken after both blocks close)
# checked: ran, trains
import tensorflow as tf

generator = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(6)])
discriminator = tf.keras.Sequential([tf.keras.Input((6,)), tf.keras.layers.Dense(1)])
cross_entropy = tf.keras.losses.BinaryCrossentropy(from_logits=True)
gen_opt = tf.keras.optimizers.Adam(1e-4)
disc_opt = tf.keras.optimizers.Adam(1e-4)


@tf.function
def train_step(images):
    noise = tf.random.normal([tf.shape(images)[0], 4])
    with tf.GradientTape() as disc_tape:
        with tf.GradientTape() as gen_tape:
            generated = generator(noise, training=True)
            fake_output = discriminator(generated, training=True)
            real_output = discriminator(images, training=True)
            gen_loss = cross_entropy(tf.ones_like(fake_output), fake_output)
            disc_loss = (cross_entropy(tf.ones_like(real_output), real_output)
                         + cross_entropy(tf.zeros_like(fake_output), fake_output))
    gen_grads = gen_tape.gradient(gen_loss, generator.trainable_variables)
    disc_grads = disc_tape.gradient(disc_loss, discriminator.trainable_variables)
    gen_opt.apply_gradients(zip(gen_grads, generator.trainable_variables))
    disc_opt.apply_gradients(zip(disc_grads, discriminator.trainable_variables))


train_step(tf.random.normal((8, 6)))
