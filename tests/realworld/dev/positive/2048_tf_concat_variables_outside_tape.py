# source: https://github.com/tensorflow/tensorflow/issues/37726
# framework: tf
# family: B
# kind: tf-tape-scope
# pitfall: the two variables are concatenated into w before the tape opens; w is a plain tensor the tape does not watch, so the gradient of the loss with respect to w (and, through it, to w1 and w2) is None
# expect: line 12 — tf.concat of the variables runs before the GradientTape, so the tensor used in the loss is not recorded or watched
# checked: ran, reproduces (None)
import tensorflow as tf

w1 = tf.Variable([[1.0]])
w2 = tf.Variable([[3.0]])
w = tf.concat([w1,w2],0)
x = tf.random.normal((1,2))
y = tf.reduce_sum(x,1)
with tf.GradientTape() as tape:
    r = tf.matmul(w,x)
    loss = tf.metrics.mse(y, r)
print(tape.gradient(loss, w))
