# source: https://github.com/tensorflow/tensorflow/issues/31264
# framework: tf
# family: B
# kind: tf-tape-scope
# pitfall: the tape watches model.inputs (the symbolic Keras inputs) instead of the eager images actually fed to the model, so the gradient of the loss with respect to model.inputs is [None]
# expect: line 16 — tape.watch(model.inputs) watches symbolic placeholders, not the tensor passed to the model
# checked: ran, reproduces on Keras 3 as an error (tape.watch rejects the symbolic KerasTensor; TF 2.0 returned [None])
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.Input(shape=(28, 28)), tf.keras.layers.Flatten(), tf.keras.layers.Dense(10)])
loss_object = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)

def train_step(images, labels):
  with tf.GradientTape() as tape:
    predictions = model(images)
    tape.watch(model.inputs)
    loss = loss_object(labels, predictions)
  print(tape.gradient(loss, model.inputs))

train_step(tf.random.normal([4, 28, 28]), tf.constant([1, 2, 3, 4]))
