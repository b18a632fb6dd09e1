# source: https://github.com/tensorflow/tensorflow/issues/7236
# framework: tf
# family: A
# kind: missing-stop-gradient
# pitfall: the sample of a reparameterized Normal is mu + sigma * eps, so log_pdf(sample) differentiated with respect to mu cancels to 0; a score-function gradient needs the sample treated as a constant (the answer: tf.gradients(q.log_prob(tf.stop_gradient(z)), mu))
# expect: line 15 — log_pdf of the distribution's own reparameterized sample, differentiated with respect to its mean, without tf.stop_gradient on the sample
# checked: parse-only (TF 0.12 contrib distributions API, as in the thread)
import tensorflow as tf
from tensorflow.contrib import distributions as dist

sess = tf.Session()

mu = tf.get_variable('mu', [], 'float32')
q = dist.Normal(mu, 1.)
log_q = q.log_pdf(q.sample())
grad = tf.gradients(log_q, mu)
sess.run(tf.global_variables_initializer())
sess.run(grad)
