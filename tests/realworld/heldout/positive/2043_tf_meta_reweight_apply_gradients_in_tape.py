# source: https://github.com/uber-research/learning-to-reweight-examples/issues/10
# framework: tf
# family: B
# kind: tf-variable-assign-in-tape
# pitfall: the look-ahead update is done with optimizer.apply_gradients inside the persistent tape; variable assignment is not differentiable, so the meta-gradient of the validation loss with respect to the example weights epsilon is None
# expect: line 21 — apply_gradients writes the inner step into the variables; the tape cannot see through the assignment
# checked: parse only (needs a compiled classifier and data)
import tensorflow as tf


def reweight_step(damage_classifier_model, Xf, yf, Xg, yg, batch_size):
  epsilon = tf.Variable([0.0 for i in range(batch_size)], dtype=tf.float32)
  with tf.GradientTape(persistent=True) as tape:
    tape.reset()
    yf_hat = damage_classifier_model(Xf)
    binaryCrossEntropy = tf.keras.losses.BinaryCrossentropy(reduction='none')
    loss_f = binaryCrossEntropy(yf,yf_hat)
    Lf = tf.reduce_sum(loss_f * epsilon)
    trainable_vars = damage_classifier_model.trainable_variables
    delta_theta = tape.gradient(Lf, trainable_vars)
    damage_classifier_model.optimizer.apply_gradients(zip(delta_theta, trainable_vars))
    yg_hat = damage_classifier_model(Xg)
    Lg = damage_classifier_model.compiled_loss(yg,yg_hat)

  delta_epsilon = tape.gradient(Lg, epsilon)
  return delta_epsilon
