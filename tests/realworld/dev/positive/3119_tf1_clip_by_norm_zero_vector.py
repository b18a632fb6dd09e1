# source: https://github.com/tensorflow/tensorflow/issues/22048
# framework: tf
# family: E
# kind: nan-grad-singular-point
# pitfall: tf.clip_by_norm divides by the L2 norm internally; at an all-zero tensor the norm is 0 and the gradient is NaN, although the op is the identity there.
# expect: line 12 — tf.clip_by_norm(a, 1.) applied to a zero vector (norm of zero inside)
# checked: not run (TF not installed); the thread shows `s.run(c)` -> [array([nan, nan, nan], dtype=float32)] on TF 1.10.1
import tensorflow as tf

# verbatim from the issue (an interactive session; the `>>>` prompts and the CPU-feature log line are removed)
a = tf.zeros([3], dtype=tf.float32)
b = tf.clip_by_norm(a, 1.)
c = tf.gradients(b,a)
s = tf.Session()
s.run(c)
