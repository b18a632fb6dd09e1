# source: https://github.com/tensorflow/tensorflow/issues/41510
# framework: tf
# kind: tf-tape-scope
# negative: the accepted fix — take the first gradient inside the with-block of the persistent tape
# mimics: positive/2017_tf_first_gradient_outside_persistent_tape.py
# expect: no finding
# checked: ran, prints 12.0 and 4.0
import tensorflow as tf

y = tf.constant(2.0,)
v = tf.Variable(3.0,)

with tf.GradientTape(persistent=True) as tape:
    tape.watch(y)
    tape.watch(v)

    w =  y * y * v

    grads = tape.gradient(w, y)  # 2*y*v
dgradsdv = tape.gradient(grads, v)  # 2 * y

print(grads)  # prints tf.Tensor(12.0, shape=(), dtype=float32)
print(dgradsdv) # prints tf.Tensor(4.0, shape=(), dtype=float32)
