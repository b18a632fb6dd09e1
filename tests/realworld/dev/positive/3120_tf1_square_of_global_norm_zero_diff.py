# source: https://github.com/tensorflow/tensorflow/issues/5562
# framework: tf
# family: E
# kind: nan-grad-singular-point
# pitfall: the loss squares tf.global_norm of a list of differences that are all zero; global_norm is a sqrt, whose derivative is infinite at 0, so the chain rule gives 0 * inf = NaN even though square(norm) is smooth.
# expect: line 14 — tf.global_norm(tensor_list) (a sqrt) of all-zero differences
# checked: not run (TF not installed); the thread shows the toy `tf.square(tf.sqrt(tf.constant(0.0)))` gradient giving `nan` and says this global_norm code is "what I am actually trying to do"
import tensorflow as tf

# verbatim from the reporter's second snippet; `print grad.eval()` (Python 2) written as a call
tensor1, tensor2 = tf.constant(1.0), tf.constant(1.0)
tensor3, tensor4 = tf.constant(2.0), tf.constant(2.0)
tensor_list = [tensor1 - tensor2, tensor3 - tensor4]
loss = tf.square(tf.global_norm(tensor_list))

grad = tf.gradients(loss, tensor1)[0]
with tf.Session() as sess:
    print(grad.eval())
