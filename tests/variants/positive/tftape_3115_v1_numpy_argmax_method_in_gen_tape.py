# source: variant of 3115_keras_text_gan_np_argmax_in_gen_tape.py
# framework: tf
# family: F
# kind: tf-tape-conversion
# pitfall: inside the generator tape the generated token distribution is turned into ids with .numpy().argmax(); the ids are NumPy, so the discriminator's loss has no path back to the generator and every generator gradient is None
# expect: line 25 — .numpy().argmax(-1) on the generator output inside the generator tape
# checked: ran, reproduces (ValueError: No gradients provided for any variable)
import tensorflow as tf
import keras

vocab, seq = 20, 5


class TextGAN:
    def __init__(self):
        self.generator = keras.Sequential([keras.Input((seq, 8)), keras.layers.Dense(vocab, activation="softmax")])
        self.discriminator = keras.Sequential([keras.Input((seq,)), keras.layers.Embedding(vocab, 4),
                                               keras.layers.Flatten(), keras.layers.Dense(1)])
        self.g_opt = keras.optimizers.Adam(1e-3)
        self.bce = keras.losses.BinaryCrossentropy(from_logits=True)

    def generator_step(self, noise):
        with tf.GradientTape() as gen_tape:
            probs = self.generator(noise, training=True)
            token_ids = probs.numpy().argmax(-1)
            fake_logits = self.discriminator(token_ids, training=True)
            g_loss = self.bce(tf.ones_like(fake_logits), fake_logits)
        grads = gen_tape.gradient(g_loss, self.generator.trainable_variables)
        self.g_opt.apply_gradients(zip(grads, self.generator.trainable_variables))
        return g_loss


TextGAN().generator_step(tf.random.normal((4, seq, 8)))
