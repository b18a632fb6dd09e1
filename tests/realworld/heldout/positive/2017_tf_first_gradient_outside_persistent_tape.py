# source: https://github.com/tensorflow/tensorflow/issues/41510
# framework: tf
# family: B
# kind: tf-tape-scope
# pitfall: the first-order gradient is taken after the with-block, so the tape never records it and the second-order gradient d(grads)/dv is None
# expect: line 19 — the first gradient is computed outside the tape's with-block, so the second-order gradient of it is None
# checked: ran, reproduces (second-order gradient None)
import tensorflow as tf

y = tf.constant(2.0,)
v = tf.Variable(3.0,)

with tf.GradientTape(persistent=True) as tape:
    tape.watch(y)
    tape.watch(v)

    w =  y * y * v

grads = tape.gradient(w, y)
dgradsdv = tape.gradient(grads, v)  # ?

print(grads)
print(dgradsdv)
