# source: https://github.com/tensorflow/tensorflow/issues/40652
# framework: tf
# family: F
# kind: tf-tape-scope
# pitfall: fixed version: the noisy input `r` is watched with tape.watch(r) before the forward pass, so the gradient w.r.t. it exists.
# expect: no finding
# checked: not run (TF not installed); the reporter states this snippet ("the correct solution to this issue") returns the gradient
import tensorflow as tf
from tensorflow.keras import layers


# compute_kld is verbatim from the same reporter's earlier issue (tensorflow#39858), which this thread continues.
def compute_kld(p_logit, q_logit): # computes difference between two distributions
  p = tf.nn.softmax(p_logit)
  q = tf.nn.softmax(q_logit)
  kl_score = tf.reduce_sum( p * (tf.math.log(p+1e-16) - tf.math.log(q+1e-16)), axis = 1)
  return kl_score # Scalar -> lower kl means closer the distributions are closer


# --- stubs (not in the thread): the embedded document batch `v` and the clean logits `p_logit` ---
MAX_DOC_LENGTH = 500
EMBEDDING_DIM = 300
v = tf.random.normal((2, MAX_DOC_LENGTH, EMBEDDING_DIM))
p_logit = tf.random.normal((2, 10))
# --- end stubs ---

# verbatim from the reporter's comment (2020-06-22)
r = tf.random.uniform(shape=tf.shape(v), minval=0.001, maxval=0.005)
r = tf.add(v,r)

with tf.GradientTape() as tape:
  tape.watch(r)
  h1 = layers.LSTM(units=128, name='LSTM_layer_r')(r)
  p_logit_r = layers.Dense(units=10, name='Dense_layer_r')(h1)
  kl = compute_kld(p_logit, p_logit_r)
grad = tape.gradient(kl, r)

print(grad)
