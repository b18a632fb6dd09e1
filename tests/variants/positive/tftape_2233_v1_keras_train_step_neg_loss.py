# source: variant of 2233_tf_wae_gradient_of_negated_loss_outside_tape.py
# framework: tf
# family: B
# kind: tf-tape-scope
# pitfall: in a GAN train_step the generator's gradient is asked for -d_loss; the negation is evaluated at the gradient call, after the tape block closed, so every generator gradient is None
# expect: line 28 — tape.gradient of an expression (-d_loss) built after the tape context closed
# checked: ran, reproduces (ValueError: No gradients provided for any variable)
import numpy as np
import tensorflow as tf
import keras


class GAN(keras.Model):
    def __init__(self):
        super().__init__()
        self.generator = keras.Sequential([keras.Input((4,)), keras.layers.Dense(6)])
        self.discriminator = keras.Sequential([keras.Input((6,)), keras.layers.Dense(1)])

    def compile(self, g_opt):
        super().compile()
        self.g_opt = g_opt

    def train_step(self, real):
        z = tf.random.normal((tf.shape(real)[0], 4))
        with tf.GradientTape() as tape:
            fake = self.generator(z, training=True)
            d_loss = tf.reduce_mean(self.discriminator(real)) - tf.reduce_mean(self.discriminator(fake))
        g_grads = tape.gradient(-d_loss, self.generator.trainable_weights)
        self.g_opt.apply_gradients(zip(g_grads, self.generator.trainable_weights))
        return {"d_loss": d_loss}


gan = GAN()
gan.compile(keras.optimizers.Adam(1e-4))
gan.fit(np.random.rand(16, 6).astype("float32"), epochs=1, batch_size=8, verbose=0)
