# source: https://github.com/tensorflow/tensorflow/issues/57786
# framework: tf
# family: E
# kind: nan-grad-singular-point
# pitfall: tf.acos is applied to a tensor containing 2.0 (outside [-1, 1]); even though only the first element is kept, the chain rule multiplies 0 by acos' nan derivative and the gradient contains nan
# expect: line 12 — acos of values outside its domain, whose nan derivative reaches the gradient
# checked: ran, reproduces (gradient [-1.15, -0, nan])
import tensorflow as tf
x = tf.constant([-0.5, 0.5, 2.0])
with tf.GradientTape(persistent=True) as tape:
    tape.watch(x)
    y = tf.acos(x)[0:1]
print(tape.gradient(y, x))
