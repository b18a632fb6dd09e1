# source: fixed twin of 3113_v1_fgsm_image_not_watched.py
# framework: tf
# family: F
# kind: tf-tape-scope
# pitfall: none (the image is a tf.Variable, which the tape watches automatically (DeepDream / style-transfer spelling))
# checked: ran, gradient present
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.Input((8,)), tf.keras.layers.Dense(3)])
image = tf.Variable(tf.random.normal((1, 8)))
opt = tf.keras.optimizers.Adam(0.01)

for step in range(3):
    with tf.GradientTape() as tape:
        score = tf.reduce_mean(model(image)[:, 1])
    grad = tape.gradient(score, image)
    image.assign_add(0.1 * grad / (tf.math.reduce_std(grad) + 1e-8))
print(image.numpy())
