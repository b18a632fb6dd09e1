# source: https://github.com/tensorflow/tensorflow/issues/56968
# framework: tf
# family: B
# kind: tf-tape-scope
# pitfall: the target is a constant that does not depend on the source, and the source tf.ones tensor is never watched, so tape.gradient returns None
# expect: line 13 — the target is a fresh constant computed from nothing the tape watches; gradient w.r.t. an unwatched tensor is None
# checked: ran, reproduces (grads: None)
import tensorflow as tf
ones = tf.ones([ 1, 128, 128, 1], tf.float32)
with tf.GradientTape() as tape:


    class_channel = tf.constant([4.4328732],  dtype=tf.float32)
    grads = tape.gradient(class_channel, ones)

    print("grads: ",grads)
