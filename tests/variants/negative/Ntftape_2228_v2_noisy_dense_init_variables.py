# source: fixed twin of 2228_v2_noisy_dense_init_variables.py
# framework: tf
# family: B
# kind: tf-tape-scope
# pitfall: none (mu + sigma * eps is formed in __call__)
# checked: ran, gradients present
import tensorflow as tf


class NoisyLinear(tf.Module):
    def __init__(self, n_in, n_out, sigma0=0.5):
        super().__init__()
        self.w_mu = tf.Variable(tf.random.uniform((n_in, n_out), -0.1, 0.1))
        self.w_sigma = tf.Variable(tf.fill((n_in, n_out), sigma0 / n_in ** 0.5))
        self.eps = tf.random.normal((n_in, n_out))

    def reset_noise(self):
        self.eps = tf.random.normal(self.eps.shape)

    def __call__(self, x):
        w = self.w_mu + self.w_sigma * self.eps
        return tf.matmul(x, w)


layer = NoisyLinear(4, 2)
x = tf.random.normal((3, 4))
with tf.GradientTape() as tape:
    loss = tf.reduce_mean(tf.square(layer(x)))
print(tape.gradient(loss, layer.trainable_variables))
