# source: variant of 2228_keras_noisy_dense_kernel_combined_in_build.py
# framework: tf
# family: B
# kind: tf-tape-scope
# pitfall: a tf.Module noisy layer combines mu + sigma * eps into self.w once in __init__; that arithmetic runs at construction, outside any GradientTape, so __call__ uses a constant and the mu/sigma variables get None gradients
# expect: line 17 — the effective weight mu + sigma * eps is computed in __init__, not in __call__
# checked: ran, reproduces (gradients None for w_mu and w_sigma)
import tensorflow as tf


class NoisyLinear(tf.Module):
    def __init__(self, n_in, n_out, sigma0=0.5):
        super().__init__()
        self.w_mu = tf.Variable(tf.random.uniform((n_in, n_out), -0.1, 0.1))
        self.w_sigma = tf.Variable(tf.fill((n_in, n_out), sigma0 / n_in ** 0.5))
        self.eps = tf.random.normal((n_in, n_out))
        self.w = self.w_mu + self.w_sigma * self.eps

    def __call__(self, x):
        return tf.matmul(x, self.w)


layer = NoisyLinear(4, 2)
x = tf.random.normal((3, 4))
with tf.GradientTape() as tape:
    loss = tf.reduce_mean(tf.square(layer(x)))
print(tape.gradient(loss, layer.trainable_variables))
