# source: variant of 2208_keras_gan_lambda_argmax_mask.py
# framework: tf
# kind: keras-lambda-nondiff
# negative: the discriminator is fed the foreground probability channel (a slice of the softmax), not its argmax
# mimics: positive/2208_v1_tf_argmax_mask.py
# expect: no finding
# checked: ran (generator gradients are not None)
import tensorflow as tf
from tensorflow.keras import layers, Model

h, w, c = 32, 32, 3

inp = layers.Input(shape=(h, w, c))
seg = layers.Conv2D(2, 3, padding="same", activation="softmax", name="gen")(inp)
mask = layers.Lambda(lambda x: x[..., 1:2])(seg)
feat = layers.Conv2D(8, 3, strides=2, name="disc_conv")(mask)
val = layers.Dense(1, activation="sigmoid")(layers.Flatten()(feat))

combined = Model(inp, val)
combined.compile(optimizer="adam", loss="binary_crossentropy")

with tf.GradientTape() as tape:
    out = combined(tf.random.normal((2, h, w, c)))
    loss = tf.reduce_mean(tf.keras.losses.binary_crossentropy(tf.ones_like(out), out))
print(tape.gradient(loss, combined.get_layer("gen").trainable_variables))
