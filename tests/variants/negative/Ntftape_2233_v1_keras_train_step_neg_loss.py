# source: fixed twin of 2233_v1_keras_train_step_neg_loss.py
# framework: tf
# family: B
# kind: tf-tape-scope
# pitfall: none (the negated loss is formed inside the tape)
# checked: ran, trains
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
            g_loss = -d_loss
        g_grads = tape.gradient(g_loss, self.generator.trainable_weights)
        self.g_opt.apply_gradients(zip(g_grads, self.generator.trainable_weights))
        return {"d_loss": d_loss, "g_loss": -d_loss}


gan = GAN()
gan.compile(keras.optimizers.Adam(1e-4))
gan.fit(np.random.rand(16, 6).astype("float32"), epochs=1, batch_size=8, verbose=0)
