# source: https://github.com/keras-team/keras/issues/11157
# framework: tf
# family: E
# kind: keras-lambda-nondiff
# pitfall: a Lambda layer applies K.argmax (then a cast) in the middle of the model, so nothing before it receives a gradient and fit() fails with "An operation has None for gradient"
# expect: line 20 — Lambda(K.argmax) in the middle of the model is not differentiable
# checked: parse only (keras.backend.argmax no longer exists in Keras 3)
from keras.layers import Input, Dense, Embedding, LSTM, Dropout, Lambda
from keras.models import Model
from keras import backend as K

vocabulary = 5000
latent_dim = 512
encoder_inputs = Input(shape=(40,))
encoder_dense = Dense(vocabulary, activation='softmax')
encoder_outputs = Embedding(vocabulary, latent_dim)(encoder_inputs)
encoder_outputs = LSTM(latent_dim, return_sequences=True)(encoder_outputs)
encoder_outputs = Dropout(0.5)(encoder_outputs)
encoder_outputs = encoder_dense(encoder_outputs)
encoder_outputs = Lambda(K.argmax, arguments={'axis':-1})(encoder_outputs)
encoder_outputs = Lambda(K.cast, arguments={'dtype':'float32'})(encoder_outputs)

encoder_dense1 = Dense(10, activation='softmax')
decoder_embedding = Embedding(vocabulary, latent_dim)
decoder_lstm1 = LSTM(latent_dim, return_sequences=True)
decoder_dense2 = Dense(vocabulary, activation='softmax')

decoder_outputs = encoder_dense1(encoder_outputs)
decoder_outputs = decoder_embedding(decoder_outputs)
decoder_outputs = decoder_lstm1(decoder_outputs)
decoder_outputs = decoder_dense2(decoder_outputs)

model = Model(encoder_inputs, decoder_outputs)
model.compile(optimizer='rmsprop', loss='categorical_crossentropy')
