# source: variant of 2208_keras_gan_lambda_argmax_mask.py
# framework: tf
# family: E
# kind: keras-lambda-nondiff
# pitfall: the generator and the discriminator are separate Models joined by a K.argmax Lambda layer in the combined GAN; argmax has no gradient, so training the combined model never updates the generator
# expect: line 31 — Lambda(K.argmax ...) joining the generator to the discriminator
# checked: ran, reproduces (the generator's gradients are None under a GradientTape on the combined model)
import tensorflow as tf
from tensorflow.keras import backend as K
from tensorflow.keras.layers import Conv2D, Dense, Flatten, Input, Lambda
from tensorflow.keras.models import Model

h, w, c = 32, 32, 3


def build_generator():
    x = Input(shape=(h, w, c))
    return Model(x, Conv2D(2, 3, padding="same", activation="softmax")(x), name="generator")


def build_discriminator():
    m = Input(shape=(h, w, 1))
    return Model(m, Dense(1, activation="sigmoid")(Flatten()(Conv2D(8, 3, strides=2)(m))), name="discriminator")


generator = build_generator()
discriminator = build_discriminator()
discriminator.trainable = False

z = Input(shape=(h, w, c))
to_mask = Lambda(lambda p: K.cast(K.expand_dims(K.argmax(p, axis=-1)), "float32"))
combined = Model(z, discriminator(to_mask(generator(z))))
combined.compile(optimizer="adam", loss="binary_crossentropy")

with tf.GradientTape() as tape:
    out = combined(tf.random.normal((2, h, w, c)))
    loss = tf.reduce_mean(tf.keras.losses.binary_crossentropy(tf.ones_like(out), out))
print(tape.gradient(loss, generator.trainable_variables))  # [None, None]
