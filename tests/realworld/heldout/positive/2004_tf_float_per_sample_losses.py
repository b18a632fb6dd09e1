# source: https://github.com/tensorflow/tensorflow/issues/30190
# framework: tf
# family: B
# kind: tf-tape-conversion
# pitfall: each per-sample loss is turned into a Python float and the distance is recomputed outside TensorFlow, so the tensor returned by convert_to_tensor has no history and the gradients are None
# expect: line 23 — float(loss) converts each per-sample loss to a Python number inside the taped loss function
# checked: parse only (tape.watch(model.trainable_variables) fails earlier on Keras 3 variables)
import numpy as np
import tensorflow as tf

loss_object = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)

def get_distance_between_samples_and_distribution(losses, if_plot=0):
  hist, _ = np.histogram(losses, bins=10, density=True)
  ref = np.exp(-np.linspace(-2, 2, 10) ** 2 / 2) / np.sqrt(2 * np.pi)
  return np.sum((hist - ref) ** 2)

def loss(model, x, y):
  y_ = model(x) # y_.shape is (batch_size, 3)
  losses = []
  for i in range(y.shape[0]):
    loss = loss_object(y_true=y[i], y_pred=y_[i])
    losses.append(float(loss))
  dis = get_distance_between_samples_and_distribution(losses, if_plot = 0)
  return tf.convert_to_tensor(dis, dtype=np.float32)

def grad(model, inputs, targets):
  with tf.GradientTape() as tape:
    loss_value = loss(model, inputs, targets)
    tape.watch(model.trainable_variables)
  return loss_value, tape.gradient(loss_value, model.trainable_variables)
