# source: variant of 2001_tf_minimize_loss_outside_lambda.py
# framework: tf
# family: B
# kind: tf-tape-scope
# pitfall: the cost is computed eagerly before minimize(); the loss callable only returns the finished tensor, so the optimizer's internal tape records nothing and no variable gets a gradient
# expect: line 18 — the cost is computed outside the loss callable, hence outside minimize()'s tape
# checked: ran, reproduces (ValueError: No gradients provided for any variable)
import tensorflow as tf

w = tf.Variable([0.5, -0.3])
b = tf.Variable(0.0)
x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
y = tf.constant([1.0, 0.0])

optimizer = tf.compat.v1.train.GradientDescentOptimizer(0.1)
for step in range(3):
    pred = tf.linalg.matvec(x, w) + b
    cost = tf.reduce_mean(tf.square(pred - y))
    optimizer.minimize(lambda: cost, var_list=[w, b])
