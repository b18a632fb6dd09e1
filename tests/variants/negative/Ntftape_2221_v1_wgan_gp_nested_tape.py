# source: fixed twin of 2221_v1_keras_gan_train_step_nested.py
# framework: tf
# family: B
# kind: tf-tape-scope
# pitfall: none (WGAN-GP: the inner gradient-penalty tape's gradient is taken inside the outer tape on purpose (second-order), and the outer gradients are taken after the block)
# checked: ran, trains, penalty gradient present
import numpy as np
import tensorflow as tf
import keras


class WGANGP(keras.Model):
    def __init__(self, gp_weight=10.0):
        super().__init__()
        self.critic = keras.Sequential([keras.Input((6,)), keras.layers.Dense(8, activation="relu"), keras.layers.Dense(1)])
        self.generator = keras.Sequential([keras.Input((4,)), keras.layers.Dense(6)])
        self.gp_weight = gp_weight

    def compile(self, d_optimizer):
        super().compile()
        self.d_optimizer = d_optimizer

    def gradient_penalty(self, real, fake):
        alpha = tf.random.uniform((tf.shape(real)[0], 1))
        interpolated = real + alpha * (fake - real)
        with tf.GradientTape() as gp_tape:
            gp_tape.watch(interpolated)
            pred = self.critic(interpolated, training=True)
        grads = gp_tape.gradient(pred, [interpolated])[0]
        norm = tf.sqrt(tf.reduce_sum(tf.square(grads), axis=1) + 1e-12)
        return tf.reduce_mean((norm - 1.0) ** 2)

    def train_step(self, real):
        z = tf.random.normal((tf.shape(real)[0], 4))
        with tf.GradientTape() as tape:
            fake = self.generator(z, training=True)
            d_cost = tf.reduce_mean(self.critic(fake, training=True)) - tf.reduce_mean(self.critic(real, training=True))
            d_loss = d_cost + self.gp_weight * self.gradient_penalty(real, fake)
        d_grads = tape.gradient(d_loss, self.critic.trainable_variables)
        self.d_optimizer.apply_gradients(zip(d_grads, self.critic.trainable_variables))
        return {"d_loss": d_loss}


gan = WGANGP()
gan.compile(keras.optimizers.Adam(1e-4))
gan.fit(np.random.rand(16, 6).astype("float32"), epochs=1, batch_size=8, verbose=0)
