# source: https://github.com/tensorflow/tensorflow/issues/50854
# framework: tf
# family: E
# kind: nan-grad-singular-point
# pitfall: the phase loss uses tf.math.angle(tf.complex(y, 0.)); at y == 0 the angle (atan2(0, 0)) has an undefined derivative, so the gradient is nan
# expect: line 12 — angle of a complex number with zero imaginary part, differentiated where the real part is zero
# checked: ran, reproduces (gradient nan)
import tensorflow as tf


def angle_loss(y_true, y_pred):
    angle_diff = tf.math.angle(tf.complex(y_true, 0.)) - tf.math.angle(tf.complex(y_pred, 0.))
    return tf.reduce_mean(tf.square(angle_diff))


y_true = tf.zeros((1, 1))
y_pred = tf.Variable(tf.zeros((1, 1)))
with tf.GradientTape() as tape:
    loss = angle_loss(y_true, y_pred)
print(tape.gradient(loss, y_pred))
