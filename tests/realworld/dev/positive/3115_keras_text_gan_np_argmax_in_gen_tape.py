# source: https://github.com/keras-team/tf-keras/issues/293
# framework: tf
# family: F
# kind: tf-tape-conversion
# pitfall: inside the generator tape the softmax output is turned into word ids with np.argmax (and Keras pad_sequences), which leaves TensorFlow, so the discriminator's loss has no path back to the generator and every generator gradient is None.
# expect: line 57 — np.argmax(predicted_next_word, ...) on the generator output inside `with tf.GradientTape() as gen_tape`
# checked: not run (TF not installed); the thread says "gradients_of_generator always becoming [None]"
import numpy as np
import tensorflow as tf
import tensorflow.keras as keras
import tensorflow.keras.layers as layers
from tensorflow.keras.layers import Dense
from tensorflow.keras.layers import LSTM
from tensorflow.keras.preprocessing.sequence import pad_sequences

# --- stubs (the reporter's data loader is not shown): vocabulary size and sequence length ---
total_words = 63303  # from the reporter's comment "#63,303"
max_sequence_length = 568  # from the reporter's comment "#568"
cross_entropy = tf.keras.losses.BinaryCrossentropy()
generator_optimizer = keras.optimizers.Adam(learning_rate=0.01)
# --- end stubs ---

# verbatim from the issue
generator = keras.Sequential(
    [
        layers.Embedding(total_words, 80, input_length=max_sequence_length-1),
        LSTM(100, return_sequences=True),
        LSTM(50),
        tf.keras.layers.Dropout(0.1),
        Dense(total_words/20),
        Dense(total_words, activation='softmax'),
    ],
    name="generator",
)

discriminator = keras.Sequential(
    [
        layers.Embedding(total_words, 80, input_length=max_sequence_length-1),
        layers.Bidirectional(tf.keras.layers.LSTM(64)),
        layers.Dropout(0.2),
        layers.Dense(64, activation='relu'),
        layers.Dense(1, activation='sigmoid'),
    ],
    name="discriminator",
)


def train_step(text):
    #function: train_step
    #text - tokenized text

    with tf.GradientTape() as gen_tape:

        predicted_next_word = generator(text, training=True)
        # The stored excerpt is cut inside the next statement ("pad_sequences([[np.argmax(predicted_next_word, axi");
        # its end and the rest of train_step are RECONSTRUCTED (discriminator on the padded ids, standard GAN generator loss).
        pred_to_word = pad_sequences([[np.argmax(predicted_next_word, axis=1)]], maxlen=max_sequence_length-1)
        fake_output = discriminator(pred_to_word, training=True)
        gen_loss = cross_entropy(tf.ones_like(fake_output), fake_output)

    gradients_of_generator = gen_tape.gradient(gen_loss, generator.trainable_variables)
    generator_optimizer.apply_gradients(zip(gradients_of_generator, generator.trainable_variables))
    return gen_loss
