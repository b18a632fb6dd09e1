# source: variant of 2001_tf_minimize_loss_outside_lambda.py
# framework: tf
# family: B
# kind: tf-tape-scope
# pitfall: the loss function passed to minimize() returns a loss tensor that was computed before the call; minimize()'s tape records only the return of an existing tensor, so no variable gets a gradient
# expect: line 14 — the loss is computed outside the loss callable, hence outside minimize()'s tape
# checked: ran, reproduces (ValueError: No gradients provided for any variable)
import tensorflow as tf

theta = tf.Variable(tf.ones(3))
target = tf.constant([1.0, 2.0, 3.0])
opt = tf.compat.v1.train.AdamOptimizer(0.05)

loss = tf.reduce_sum(tf.square(theta - target))


def loss_fn():
    return loss


opt.minimize(loss_fn, var_list=[theta])
