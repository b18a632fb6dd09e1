# source: https://github.com/ageron/handson-ml3/issues/252
# framework: tf
# family: D
# kind: frozen-but-trained
# pitfall: the book's GAN recipe compiles the discriminator, sets discriminator.trainable = False and compiles the combined model, relying on Keras 2 freezing the flag at compile time; Keras 3 reads the flag when training, so discriminator.train_on_batch finds no trainable weights ('The model does not have any trainable weights') and the discriminator never learns
# expect: line 28 — discriminator.trainable = False also freezes the discriminator's own train_on_batch under Keras 3, not only inside the combined gan model
# checked: ran on keras 3.15 / tensorflow 2.21, reproduces (UserWarning: The model does not have any trainable weights; discriminator weights unchanged after train_on_batch)
import tensorflow as tf

codings_size = 30

Dense = tf.keras.layers.Dense
generator = tf.keras.Sequential([
    Dense(100, activation="relu", kernel_initializer="he_normal"),
    Dense(150, activation="relu", kernel_initializer="he_normal"),
    Dense(28 * 28, activation="sigmoid"),
    tf.keras.layers.Reshape([28, 28])
])
discriminator = tf.keras.Sequential([
    tf.keras.layers.Flatten(),
    Dense(150, activation="relu", kernel_initializer="he_normal"),
    Dense(100, activation="relu", kernel_initializer="he_normal"),
    Dense(1, activation="sigmoid")
])
gan = tf.keras.Sequential([generator, discriminator])

discriminator.compile(loss="binary_crossentropy", optimizer="rmsprop")
discriminator.trainable = False
gan.compile(loss="binary_crossentropy", optimizer="rmsprop")


def train_gan(gan, dataset, batch_size, codings_size, n_epochs):
    generator, discriminator = gan.layers
    for epoch in range(n_epochs):
        print(f"Epoch {epoch + 1}/{n_epochs}")
        for X_batch in dataset:
            # phase 1 - training the discriminator
            noise = tf.random.normal(shape=[batch_size, codings_size])
            generated_images = generator(noise)
            X_fake_and_real = tf.concat([generated_images, X_batch], axis=0)
            y1 = tf.constant([[0.]] * batch_size + [[1.]] * batch_size)
            discriminator.train_on_batch(X_fake_and_real, y1)
            # phase 2 - training the generator
            noise = tf.random.normal(shape=[batch_size, codings_size])
            y2 = tf.constant([[1.]] * batch_size)
            gan.train_on_batch(noise, y2)
