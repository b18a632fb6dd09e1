# source: https://github.com/mkocabas/focal-loss-keras/issues/17
# framework: tf
# family: E
# kind: nan-grad-singular-point
# pitfall: fix from the thread (jganzabal): add K.epsilon() inside both logs so log is never evaluated at 0.
# expect: no finding
# checked: not run (tensorflow not installed)
import tensorflow as tf
from keras import backend as K


def focal_loss(gamma=2., alpha=.25):
    def focal_loss_fixed(y_true, y_pred):
        pt_1 = tf.where(tf.equal(y_true, 1), y_pred, tf.ones_like(y_pred))
        pt_0 = tf.where(tf.equal(y_true, 0), y_pred, tf.zeros_like(y_pred))
        return -K.sum(alpha * K.pow(1. - pt_1, gamma) * K.log(K.epsilon()+pt_1))-K.sum((1-alpha) * K.pow( pt_0, gamma) * K.log(1. - pt_0 + K.epsilon()))
    return focal_loss_fixed


y_true = tf.constant([[1.0, 0.0, 1.0]])
y_pred = tf.Variable([[0.0, 0.3, 0.9]])
with tf.GradientTape() as tape:
    loss = focal_loss()(y_true, y_pred)
print(loss, tape.gradient(loss, y_pred))
