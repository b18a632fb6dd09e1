# source: variant of 3022_tf_function_sqrt_of_square.py
# framework: tf
# kind: nan-grad-singular-point
# negative: the contrastive distance floors the squared distance inside the sqrt (tf.maximum(sum, eps)), as the Keras siamese example does
# mimics: positive/3022_v1_pairwise_distance_loss.py
# expect: no finding
# checked: ran (finite gradient for the identical negative pair)
import tensorflow as tf


def contrastive_loss(emb_a, emb_b, same, margin=1.0):
    sum_square = tf.reduce_sum(tf.square(emb_a - emb_b), axis=-1)
    dist = tf.sqrt(tf.maximum(sum_square, 1e-7))
    pos = same * tf.square(dist)
    neg = (1.0 - same) * tf.square(tf.maximum(margin - dist, 0.0))
    return tf.reduce_mean(pos + neg)


a = tf.Variable([[1.0, 2.0], [0.5, 0.5]])
b = tf.constant([[0.0, 1.0], [0.5, 0.5]])
with tf.GradientTape() as tape:
    loss = contrastive_loss(a, b, tf.constant([1.0, 0.0]))
print(tape.gradient(loss, a))
