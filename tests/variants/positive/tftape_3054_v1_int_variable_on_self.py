# source: variant of 3054_tf_int_variables_not_differentiable.py
# framework: tf
# family: B
# kind: tf-tape-scope
# pitfall: the scale and offset variables are created from Python ints, so they are int32; the tape does not watch integer variables and the gradients are None
# expect: line 14 — integer tf.Variable (created from a Python int) used as a gradient source
# checked: ran, reproduces ([None, None])
import tensorflow as tf


class Affine(tf.Module):
    def __init__(self):
        super().__init__()
        self.scale = tf.Variable(2)
        self.offset = tf.Variable(0)

    def __call__(self, x):
        return self.scale * x + self.offset


f = Affine()
x = tf.constant([1, 2, 3])
with tf.GradientTape() as tape:
    y = tf.reduce_sum(f(x))
print(tape.gradient(y, [f.scale, f.offset]))
