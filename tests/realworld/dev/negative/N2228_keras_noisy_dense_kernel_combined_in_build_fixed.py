# source: https://github.com/tensorflow/tensorflow/issues/32729
# framework: tf
# kind: tf-tape-scope
# negative: the reporter's working variant — the two lines that combine mu, sigma and eps are in call(), so every forward pass records them on the tape
# mimics: positive/2228_keras_noisy_dense_kernel_combined_in_build.py
# expect: no finding
# checked: ran (tensorflow-cpu 2.21), all four mu/sigma variables get gradients
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

    def reset_noise(self, input_dim):
        self.weights_eps = tf.random.normal((input_dim, self.units))
        self.bias_eps = tf.random.normal((self.units,))

    def call(self, inputs):
        self.kernel = self.weight_mu + self.weight_sigma * self.weights_eps
        self.bias = self.bias_mu + self.bias_sigma * self.bias_eps
        return tf.matmul(inputs, self.kernel) + self.bias
