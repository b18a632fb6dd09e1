# source: https://github.com/eriklindernoren/Keras-GAN/issues/61
# framework: tf
# family: E
# kind: keras-lambda-nondiff
# pitfall: a Lambda layer takes K.argmax of the generator's two-class mask before the discriminator; argmax is not differentiable, so backprop from the discriminator never reaches the generator (the reporter: "the backprop is not working correctly")
# expect: line 16 — Lambda(K.argmax ...) between the segmentation generator and the discriminator
# checked: parse-only; the thread shows only the Lambda line and the pipeline input -> GEN -> out1(h,w,2) -> Lambda -> out2(h,w,1) -> DISCRIMINATOR, the two small networks around it are stand-ins
from keras import backend as K
from keras.layers import Conv2D, Dense, Flatten, Input, Lambda
from keras.models import Model

h, w, c = 64, 64, 3

inp = Input(shape=(h, w, c))
out1 = Conv2D(2, 3, padding="same", activation="softmax")(inp)  # [GEN]: per-pixel distribution over 2 classes
out2 = Lambda(lambda x: K.cast(K.expand_dims(K.argmax(x)), dtype="float32"))(out1)
val = Dense(1, activation="sigmoid")(Flatten()(Conv2D(8, 3, strides=2)(out2)))  # [DISCRIMINATOR]

combined = Model(inp, val)
combined.compile(optimizer="adam", loss="binary_crossentropy")
