# source: variant of 3054_tf_int_variables_not_differentiable.py
# framework: tf
# family: B
# kind: tf-tape-scope
# pitfall: the polynomial coefficients are created from a list of Python ints, so the variable is int32; the tape does not watch integer variables and the gradient is None
# expect: line 12 — integer tf.Variable (from [1, 2, 3]) used as a gradient source
# checked: ran, reproduces (None)
import tensorflow as tf


def make_params():
    return tf.Variable([1, 2, 3], name="coeffs")


def poly(coeffs, x):
    return coeffs[0] + coeffs[1] * x + coeffs[2] * x * x


coeffs = make_params()
with tf.GradientTape() as tape:
    value = poly(coeffs, tf.constant(2))
print(tape.gradient(value, coeffs))
