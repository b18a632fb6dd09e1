# source: https://github.com/tensorflow/probability/issues/1165
# framework: tf
# family: B
# kind: tf-tape-scope
# pitfall: the joint distribution is built once, outside the tape, with scale=tf.exp(logscale_1); the exp is evaluated eagerly at construction, so log_prob inside the tape sees a constant scale and the gradients with respect to logscale_1 and logscale_2 are None (loc_1/loc_2, passed as variables, do get gradients)
# expect: line 21 — tf.exp(logscale_1) evaluated when the distribution is constructed, outside the GradientTape that later differentiates with respect to logscale_1
# checked: ran (tensorflow-cpu 2.21, tensorflow-probability 0.25), reproduces (None for logscale_1 and logscale_2, values for loc_1 and loc_2; observed value [6.] given as a list)
import tensorflow as tf
import tensorflow_probability as tfp

tfd = tfp.distributions

loc_1 = tf.Variable([38.6], trainable=True)
logscale_1 = tf.Variable([2.3], trainable=True)

loc_2 = tf.Variable([6.6], trainable=True)
logscale_2 = tf.Variable([3.4], trainable=True)

a = tf.Variable([3.3], trainable=True)
b = tf.Variable([6.0], trainable=True)
joint = tfd.JointDistributionSequential([tfd.Normal(loc=loc_1, scale=tf.exp(logscale_1)),
                                         tfd.Normal(loc=loc_2, scale=tf.exp(logscale_2)),
                                         lambda b1, b0: tfd.Independent(
                                             tfd.Normal(
                                             loc=b0 + b1*3,
                                             scale=a/b),
                                             reinterpreted_batch_ndims=1
                                             ),])

with tf.GradientTape() as tape:
    ll = joint.log_prob(3,5,6)

tape.gradient(ll, [loc_1, loc_2,  logscale_1, logscale_2])
# gradients wrt logscale_1, logscale_2 are None
