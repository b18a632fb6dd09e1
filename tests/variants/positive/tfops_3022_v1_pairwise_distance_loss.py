# source: variant of 3022_tf_function_sqrt_of_square.py
# framework: tf
# family: E
# kind: nan-grad-singular-point
# pitfall: a contrastive loss computes the Euclidean distance as tf.sqrt(tf.reduce_sum(tf.square(a - b), axis=-1)) with no epsilon; for a negative pair whose embeddings collapsed to the same point the distance is 0, the margin term still pushes on it, and sqrt's infinite gradient makes it NaN
# expect: line 12 — tf.sqrt of a squared distance that is 0 for identical embeddings
# checked: ran, reproduces (gradient w.r.t. the embeddings is NaN for the identical negative pair)
import tensorflow as tf


def contrastive_loss(emb_a, emb_b, same, margin=1.0):
    dist = tf.sqrt(tf.reduce_sum(tf.square(emb_a - emb_b), axis=-1))
    pos = same * tf.square(dist)
    neg = (1.0 - same) * tf.square(tf.maximum(margin - dist, 0.0))
    return tf.reduce_mean(pos + neg)


a = tf.Variable([[1.0, 2.0], [0.5, 0.5]])
b = tf.constant([[0.0, 1.0], [0.5, 0.5]])
with tf.GradientTape() as tape:
    loss = contrastive_loss(a, b, tf.constant([1.0, 0.0]))
print(tape.gradient(loss, a))  # second row (a collapsed negative pair) nan
