# source: https://github.com/tensorflow/tensorflow/issues/26404
# framework: tf
# kind: tf-tape-scope
# negative: the accepted fix — use model.trainable_variables for the gradient and the update
# mimics: positive/2009_tf_gradient_wrt_model_variables_bn.py
# expect: no finding
# checked: parse only (function definitions)
import tensorflow as tf

def compute_loss(prediction, label, operation='L2'):
    return tf.reduce_mean(tf.square(prediction - label))

def train_step(model, optimizer, x, label, step):
    with tf.GradientTape() as tape:
          prediction = model(x, training=True)
          var_list = tape.watched_variables()
          loss = compute_loss(prediction, label, operation = 'L2')
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss
