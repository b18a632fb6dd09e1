# source: https://github.com/alibaba-edu/simple-effective-text-matching/issues/2
# framework: tf
# family: E
# kind: nan-grad-singular-point
# pitfall: guarded weight-norm: the squared norm is clamped with tf.maximum(..., eps) *before* tf.sqrt (and the divisor clamped again), so an all-zero weight row never reaches sqrt(0); the maintainer confirms no NaN can arise.
# expect: no finding
# checked: not run (tensorflow not installed)
import tensorflow as tf

# from src/modules/__init__.py (weight-normalised dense layer); shape/w/g/eps are stubs; keep_dims -> keepdims for TF2
eps = 1e-8
shape = [3, 2]
w = tf.Variable(tf.zeros(shape))           # an all-zero weight matrix
g = tf.Variable(tf.ones([1, shape[-1]]))
with tf.GradientTape() as tape:
    w_norm = tf.sqrt(tf.maximum(tf.reduce_sum(tf.square(w), axis=list(range(len(shape) - 1)), keepdims=True), eps))
    w_n = w / tf.maximum(w_norm, 1e-7) * g
    loss = tf.reduce_sum(w_n)
print(tape.gradient(loss, [w, g]))
