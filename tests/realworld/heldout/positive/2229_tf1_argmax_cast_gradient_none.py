# source: https://github.com/tensorflow/tensorflow/issues/15278
# framework: tf
# family: E
# kind: nondiff-op-on-loss-path
# pitfall: tf.argmax has no gradient; with the result cast back (tf.cast) the graph silently yields None from tf.gradients instead of raising, so anything trained through argmax gets no gradient
# expect: line 14 — tf.argmax on the differentiated path, cast to int32, differentiated with tf.gradients (None)
# checked: parse-only (TF1 graph code from the thread)
import tensorflow as tf

a = tf.constant([1.0])
b = a * 2

def use_cast(b):
    c = tf.argmax(b, axis=-1)
    c = tf.cast(c, tf.int32)
    return c

def not_use_cast(b):
    return tf.argmax(b, axis=-1, output_type=tf.int32)

print("use cast:")
print(tf.gradients(use_cast(b), a))

print("===========")
print("not use cast")
print(tf.gradients(not_use_cast(b), a))
