# source: variant of 2208_keras_gan_lambda_argmax_mask.py
# framework: tf
# family: E
# kind: keras-lambda-nondiff
# pitfall: a Lambda layer turns the generator's per-pixel class distribution into a hard mask with tf.argmax before the discriminator; argmax has no gradient, so the discriminator's loss never reaches the generator
# expect: line 15 — Lambda(tf.argmax ...) between the segmentation generator and the discriminator
# checked: ran, reproduces (the generator Conv2D's gradients are None under a GradientTape on the combined model)
import tensorflow as tf
from tensorflow.keras import layers, Model

h, w, c = 32, 32, 3

inp = layers.Input(shape=(h, w, c))
seg = layers.Conv2D(2, 3, padding="same", activation="softmax", name="gen")(inp)
mask = layers.Lambda(lambda x: tf.cast(tf.expand_dims(tf.argmax(x, axis=-1), -1), tf.float32))(seg)
feat = layers.Conv2D(8, 3, strides=2, name="disc_conv")(mask)
val = layers.Dense(1, activation="sigmoid")(layers.Flatten()(feat))

combined = Model(inp, val)
combined.compile(optimizer="adam", loss="binary_crossentropy")

with tf.GradientTape() as tape:
    out = combined(tf.random.normal((2, h, w, c)))
    loss = tf.reduce_mean(tf.keras.losses.binary_crossentropy(tf.ones_like(out), out))
gen_vars = combined.get_layer("gen").trainable_variables
print(tape.gradient(loss, gen_vars))  # [None, None]
