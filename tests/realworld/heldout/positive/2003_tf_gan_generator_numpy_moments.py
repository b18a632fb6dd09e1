# source: https://github.com/tensorflow/tensorflow/issues/31919
# framework: tf
# family: B
# kind: tf-tape-conversion
# pitfall: the generator output is converted with .numpy() and reduced with NumPy moments inside the tape, so the generator loss has no path back to G's variables
# expect: line 26 — g_fake_data.numpy() inside the tape cuts the generator out of the loss
# checked: ran with small Dense models as G and D, reproduces (No gradients provided for any variable)
import numpy as np
import tensorflow as tf
from scipy.stats import skew, kurtosis

def get_moments(d):
    mean = np.mean(d)
    diffs = d - mean
    var = np.mean(np.power(diffs, 2.0))
    std = np.power(var, 0.5)
    zscores = diffs / std
    skews = np.mean(np.power(zscores, 3.0))
    kurtoses = np.mean(np.power(zscores, 4.0)) - 3.0
    final = np.concatenate((mean.reshape(1,), std.reshape(1,), skews.reshape(1,), kurtoses.reshape(1,)))
    return final

def train_generator(G, D, criterion, g_optimizer, gen_input):
    with tf.GradientTape() as tape:
      g_fake_data = G(gen_input)
      dg_fake_decision = D(get_moments(g_fake_data.numpy().T).reshape((1,4)))
      g_error = criterion(dg_fake_decision, tf.ones([1, 1]))
    grads = tape.gradient(g_error, G.trainable_variables)
    g_optimizer.apply_gradients(zip(grads, G.trainable_variables))
    return g_error
