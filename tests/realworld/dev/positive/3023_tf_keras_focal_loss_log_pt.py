# source: https://github.com/mkocabas/focal-loss-keras/issues/17
# framework: tf
# family: E
# kind: nan-grad-singular-point
# pitfall: focal_loss_fixed takes K.log(pt_1) where pt_1 is the sigmoid prediction at positive labels; a saturated prediction of exactly 0 gives log(0) = -inf and an infinite derivative, so the loss/gradients become NaN.
# expect: line 18 — K.log(pt_1) with pt_1 == 0
# checked: not run (tensorflow not installed); the issue reports nan loss fixed by adding K.epsilon() inside the logs
# note: code is focal_loss.py of mkocabas/focal-loss-keras; tabs/spaces normalised and the missing `import tensorflow as tf` added
import tensorflow as tf
from keras import backend as K

# Compatible with tensorflow backend

def focal_loss(gamma=2., alpha=.25):
    def focal_loss_fixed(y_true, y_pred):
        pt_1 = tf.where(tf.equal(y_true, 1), y_pred, tf.ones_like(y_pred))
        pt_0 = tf.where(tf.equal(y_true, 0), y_pred, tf.zeros_like(y_pred))
        return -K.sum(alpha * K.pow(1. - pt_1, gamma) * K.log(pt_1))-K.sum((1-alpha) * K.pow( pt_0, gamma) * K.log(1. - pt_0))
    return focal_loss_fixed


y_true = tf.constant([[1.0, 0.0, 1.0]])
y_pred = tf.Variable([[0.0, 0.3, 0.9]])  # saturated sigmoid output 0 at a positive label
with tf.GradientTape() as tape:
    loss = focal_loss()(y_true, y_pred)
print(loss, tape.gradient(loss, y_pred))
