# source: https://github.com/eriklindernoren/Keras-GAN/issues/22
# framework: tf
# kind: frozen-but-trained
# negative: the discriminator is compiled first and trainable=False is set before the combined model is compiled, so the discriminator trains on its own train_on_batch and stays frozen inside the combined model (the maintainer's explanation)
# mimics: positive/2037_keras_make_trainable_without_recompile.py
# expect: no finding
# checked: parse only (class definition)
from keras.layers import Input, Dense
from keras.models import Model, Sequential
from keras.optimizers import Adam


class GAN():
    def __init__(self):
        optimizer = Adam(0.0002, 0.5)

        self.discriminator = Sequential([Dense(512, input_dim=784, activation='relu'), Dense(1, activation='sigmoid')])
        self.discriminator.compile(loss='binary_crossentropy',
            optimizer=optimizer,
            metrics=['accuracy'])

        self.generator = Sequential([Dense(784, input_dim=100, activation='tanh')])

        z = Input(shape=(100,))
        img = self.generator(z)

        # For the combined model we will only train the generator
        self.discriminator.trainable = False

        validity = self.discriminator(img)

        self.combined = Model(z, validity)
        self.combined.compile(loss='binary_crossentropy', optimizer=optimizer)
