# source: fixed twin of 3113_v1_fgsm_image_not_watched.py
# framework: tf
# family: F
# kind: tf-tape-scope
# pitfall: none (tape.watch(image) before the forward pass)
# checked: ran, gradient present
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.Input((8,)), tf.keras.layers.Dense(3)])
loss_object = tf.keras.losses.CategoricalCrossentropy(from_logits=True)


def create_adversarial_pattern(model, image, label):
    image = tf.convert_to_tensor(image)
    with tf.GradientTape() as tape:
        tape.watch(image)
        prediction = model(image)
        loss = loss_object(label, prediction)
    gradient = tape.gradient(loss, image)
    return tf.sign(gradient)


print(create_adversarial_pattern(model, tf.random.normal((1, 8)), tf.one_hot([1], 3)))
