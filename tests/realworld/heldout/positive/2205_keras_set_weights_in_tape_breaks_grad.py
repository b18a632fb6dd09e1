# source: https://github.com/tensorflow/tensorflow/issues/53541
# framework: tf
# family: B
# kind: tf-variable-assign-in-tape
# pitfall: inside the tape the scaled weights are written back with learner.set_weights(...), which assigns NumPy values into the model's variables; the forward pass then reads the variables, not new_weights, so the gradient with respect to l is None
# expect: line 19 — model.set_weights(new_weights) inside the GradientTape cuts the path from l to the loss (the reporter: "the model.set_weights() function breaks the gradient")
# checked: ran (tensorflow-cpu 2.21), reproduces (grads is None); learner and batch are not shown in the thread, reduced to a small Dense model and random data
import tensorflow as tf

learner = tf.keras.Sequential([tf.keras.layers.Dense(3, activation="softmax")])
batch = {"train": {"X": tf.random.normal([8, 4]), "y": tf.one_hot(tf.range(8) % 3, 3)}}
learner(batch["train"]["X"])

l = tf.constant(0.1)
with tf.GradientTape() as gt:
  gt.watch(l)
  new_weights = [w * l for w in learner.weights]

  learner.set_weights(new_weights)

  y_pred = learner(batch["train"]["X"])
  loss = tf.keras.losses.categorical_crossentropy(batch["train"]["y"], y_pred)
grads = gt.gradient(loss, l)
grads # returns None
