# source: https://github.com/tensorflow/probability/issues/51
# framework: tf
# family: B
# kind: tf-tape-scope
# pitfall: the Gamma samples are drawn before the GradientTape is opened, and the parameters are tf.constant tensors that the tape does not watch; the implicit reparameterization gradient is never recorded, so the gradients are [None, None] (the maintainer: "Move the sample inside the tape?")
# expect: line 14 — dist.sample(5) drawn outside the GradientTape whose loss is differentiated with respect to the distribution's parameters
# checked: ran (tensorflow-cpu 2.21, tensorflow-probability 0.25), reproduces ([None, None])
import tensorflow as tf
import tensorflow_probability as tfp

concentration = tf.constant(3.0)
rate = tf.constant(2.0)
dist = tfp.distributions.Gamma(concentration, rate)
samples = dist.sample(5)  # Shape [5]
with tf.GradientTape() as tape:
    loss = tf.reduce_mean(tf.square(samples))  # Arbitrary loss function
# Unbiased stochastic gradients of the loss function
grads = tape.gradient(loss, [concentration, rate])

print(grads)
