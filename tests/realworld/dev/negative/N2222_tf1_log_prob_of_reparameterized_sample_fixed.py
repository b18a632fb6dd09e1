# source: https://github.com/tensorflow/tensorflow/issues/7236
# framework: tf
# kind: missing-stop-gradient
# negative: the fix from the answer — stop the gradient through the sample before scoring it, so the log-density's gradient with respect to mu is the score function
# mimics: positive/2222_tf1_log_prob_of_reparameterized_sample.py
# expect: no finding
# checked: parse-only
import tensorflow as tf
from tensorflow.contrib import distributions as dist

sess = tf.Session()

mu = tf.get_variable('mu', [], 'float32')
q = dist.Normal(mu, 1.)
z = q.sample()
log_q = q.log_pdf(tf.stop_gradient(z))
grad = tf.gradients(log_q, mu)
sess.run(tf.global_variables_initializer())
sess.run(grad)
