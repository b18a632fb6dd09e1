# source: variant of 3022_tf_function_sqrt_of_square.py
# framework: tf
# family: E
# kind: nan-grad-singular-point
# pitfall: a Keras 3 loss computes a per-sample magnitude with ops.sqrt(ops.sum(ops.square(diff))) and no epsilon; when the prediction equals the target the sqrt is at 0, its gradient is inf and the gradient becomes NaN
# expect: line 15 — ops.sqrt of a sum of squares that is 0 when prediction == target
# checked: ran, reproduces (gradient nan for the exactly-matching sample)
import tensorflow as tf
import keras
from keras import ops


def euclidean_loss(y_true, y_pred):
    diff = y_true - y_pred
    return ops.mean(ops.sqrt(ops.sum(ops.square(diff), axis=-1)))


y_pred = tf.Variable([[1.0, 1.0], [0.0, 2.0]])
y_true = tf.constant([[1.0, 1.0], [1.0, 1.0]])
with tf.GradientTape() as tape:
    loss = euclidean_loss(y_true, y_pred)
print(tape.gradient(loss, y_pred))  # first row nan
