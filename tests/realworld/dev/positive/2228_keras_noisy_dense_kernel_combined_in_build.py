# source: https://github.com/tensorflow/tensorflow/issues/32729
# framework: tf
# family: B
# kind: tf-tape-scope
# pitfall: the noisy layer combines its variables into self.kernel / self.bias (mu + sigma * eps) once, in build(); that arithmetic runs when the layer is built, outside any GradientTape, so call() uses constant tensors and the mu/sigma variables get None gradients (moving the two lines into call() makes it train, as the reporter found; the answer: build sets up the weights, call defines the computation)
# expect: line 31 — the effective bias mu + sigma * eps is computed in build(), not in call(), so the tape never records it
# checked: ran (tensorflow-cpu 2.21), reproduces (all four mu/sigma variables get None gradients; the fixed variant gets all four); the thread's build() is shown up to the first variable, the remaining variables, reset_noise and call are reduced stand-ins
import numpy as np
import tensorflow as tf
import tensorflow.keras.layers as kl


class NoisyDense(kl.Layer):
    def __init__(self, units, std_init=0.5):
        super().__init__()
        self.units = units
        self.std_init = std_init

    def build(self, input_shape):
        self.reset_noise(input_shape[-1])
        mu_range = 1 / np.sqrt(input_shape[-1])
        mu_initializer = tf.random_uniform_initializer(-mu_range, mu_range)
        sigma_initializer = tf.constant_initializer(self.std_init / np.sqrt(self.units))

        self.weight_mu = tf.Variable(initial_value=mu_initializer(shape=(input_shape[-1], self.units), dtype='float32'), trainable=True)
        self.weight_sigma = tf.Variable(initial_value=sigma_initializer(shape=(input_shape[-1], self.units), dtype='float32'), trainable=True)
        self.bias_mu = tf.Variable(initial_value=mu_initializer(shape=(self.units,), dtype='float32'), trainable=True)
        self.bias_sigma = tf.Variable(initial_value=sigma_initializer(shape=(self.units,), dtype='float32'), trainable=True)

        self.kernel = self.weight_mu + self.weight_sigma * self.weights_eps
        self.bias = self.bias_mu + self.bias_sigma * self.bias_eps

    def reset_noise(self, input_dim):
        self.weights_eps = tf.random.normal((input_dim, self.units))
        self.bias_eps = tf.random.normal((self.units,))

    def call(self, inputs):
        return tf.matmul(inputs, self.kernel) + self.bias
