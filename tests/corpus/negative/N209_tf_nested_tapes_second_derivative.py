# source: https://www.tensorflow.org/guide/advanced_autodiff#higher-order_gradients
# family: B
# negative: higher-order gradient: the inner tape's gradient is taken inside the outer tape's with-block (so the outer tape records it) but after the inner block closed
# mimics: tape.gradient inside a with GradientTape block
# expect: no finding

import tensorflow as tf

x = tf.Variable(1.5)

with tf.GradientTape() as outer:
    with tf.GradientTape() as inner:
        y = x ** 3 + tf.sin(x)
    dy_dx = inner.gradient(y, x)
d2y_dx2 = outer.gradient(dy_dx, x)
print(dy_dx.numpy(), d2y_dx2.numpy())
