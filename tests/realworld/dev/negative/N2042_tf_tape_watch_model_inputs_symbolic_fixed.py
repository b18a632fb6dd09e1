# source: https://github.com/tensorflow/tensorflow/issues/31264
# framework: tf
# kind: tf-tape-scope
# negative: the accepted fix — watch the eager input (tape.watch(images)) before the forward pass and differentiate with respect to it
# mimics: positive/2042_tf_tape_watch_model_inputs_symbolic.py
# expect: no finding
# checked: ran, input gradient computed
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.Input(shape=(28, 28)), tf.keras.layers.Flatten(), tf.keras.layers.Dense(10)])
loss_object = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)

def train_step(images, labels):
  with tf.GradientTape() as tape:
    tape.watch(images)
    predictions = model(images)
    loss = loss_object(labels, predictions)
  print(tape.gradient(loss, images))

train_step(tf.random.normal([4, 28, 28]), tf.constant([1, 2, 3, 4]))
