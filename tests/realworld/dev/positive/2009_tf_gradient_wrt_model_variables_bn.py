# source: https://github.com/tensorflow/tensorflow/issues/26404
# framework: tf
# family: B
# kind: tf-tape-scope
# pitfall: gradients are requested for model.variables, which includes BatchNormalization's non-trainable moving statistics; those entries come back None and apply_gradients gets None gradients
# expect: line 18 — tape.gradient(loss, model.variables) asks for non-trainable variables
# checked: ran with a Dense+BatchNormalization model, reproduces (2 None gradients for the moving statistics)
import tensorflow as tf

def compute_loss(prediction, label, operation='L2'):
    return tf.reduce_mean(tf.square(prediction - label))

def train_step(model, optimizer, x, label, step):
    with tf.GradientTape() as tape:
          prediction = model(x, training=True)
          var_list = tape.watched_variables()
          loss = compute_loss(prediction, label, operation = 'L2')
    grads = tape.gradient(loss, model.variables)
    optimizer.apply_gradients(zip(grads, model.variables))
    return loss
