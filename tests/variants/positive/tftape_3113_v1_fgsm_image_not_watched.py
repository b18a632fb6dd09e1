# source: variant of 3113_tf_lstm_noise_input_not_watched.py
# framework: tf
# family: F
# kind: tf-tape-scope
# pitfall: FGSM: the gradient is taken w.r.t. the input image, a plain tf.Tensor that the tape never watched, so tape.gradient returns None
# expect: line 19 — tape.gradient(loss, image) where `image` is an unwatched tf.Tensor (no tape.watch(image))
# checked: ran, reproduces (None)
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.Input((8,)), tf.keras.layers.Dense(3)])
loss_object = tf.keras.losses.CategoricalCrossentropy(from_logits=True)


def create_adversarial_pattern(model, image, label):
    image = tf.convert_to_tensor(image)
    with tf.GradientTape() as tape:
        prediction = model(image)
        loss = loss_object(label, prediction)
    gradient = tape.gradient(loss, image)
    return gradient


print(create_adversarial_pattern(model, tf.random.normal((1, 8)), tf.one_hot([1], 3)))
