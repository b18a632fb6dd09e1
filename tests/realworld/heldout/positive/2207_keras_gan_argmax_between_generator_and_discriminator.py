# source: https://github.com/tensorflow/tensorflow/issues/52260
# framework: tf
# family: E
# kind: nondiff-op-on-loss-path
# pitfall: the combined GAN model feeds K.argmax of the generator's output to the discriminator; argmax has no gradient, so with the discriminator frozen no gradient reaches the generator ("No gradient is provided to any variable")
# expect: line 26 — K.argmax between the generator and the discriminator in the combined model that trains the generator
# checked: parse-only (the generator and discriminator are defined elsewhere in the thread's gist; small stand-ins added)
from tensorflow.keras import backend as K
from tensorflow.keras.layers import Dense, Embedding, GlobalAveragePooling1D, Input
from tensorflow.keras.models import Model, Sequential
from tensorflow.keras.optimizers import Adam

timestep = 20
vocab = 50
generator = Sequential([Input(shape=(timestep,)), Dense(timestep * vocab), ])
discriminator = Sequential([Input(shape=(timestep,)), Embedding(vocab, 8), GlobalAveragePooling1D(), Dense(1, activation='sigmoid')])


def define_gan(g_model, d_model,timestep):

    discriminator.trainable = False
    generator.trainable= True

    a = Input(shape=(timestep,))
    b = g_model(a)
    c=K.argmax(b,axis=-1)
    output_d = d_model(c)
    model = Model(inputs=a,outputs=output_d)

    # compile model
    opt = Adam(lr=0.0002, beta_1=0.5)
    model.compile(loss=['binary_crossentropy'], optimizer=opt,metrics=['accuracy'])
    model.summary()
    return model
