# source: https://github.com/tensorflow/tensorflow/issues/60556
# framework: tf
# family: E
# kind: fd-at-nondifferentiable-point
# pitfall: tf.test.compute_gradient compares the analytic gradient of floor (0) with a central finite difference taken at x = 4.0, exactly on a jump of floor; the numeric derivative is 1/(2*delta) = 512 with float32's delta of 1/1024, so the check reports a mismatch that says nothing about the gradient
# expect: line 11 — finite-difference gradient check evaluated at a discontinuity of the function (floor at an integer)
# checked: ran, reproduces ((array([[0.]]),) vs (array([[512.]]),))
import tensorflow as tf

x = tf.constant([4.])
th, nu= tf.test.compute_gradient(tf.math.floor, [x])
print(th, nu)  # (array([[0.]], dtype=float32),) (array([[512.]], dtype=float32),)
th, nu= tf.test.compute_gradient(tf.experimental.numpy.floor, [x])
print(th, nu)  # (array([[0.]], dtype=float32),) (array([[512.]], dtype=float32),)
