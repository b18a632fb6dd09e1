# source: variant of 2042_tf_tape_watch_model_inputs_symbolic.py
# framework: tf
# family: B
# kind: tf-tape-scope
# pitfall: for an FGSM perturbation the tape watches model.input (the symbolic Keras input of the functional model) instead of the image tensor actually fed to the model, so the gradient with respect to the input cannot be computed
# expect: line 19 — tape.watch(model.input) watches the symbolic placeholder, not the tensor passed to the model
# checked: ran on Keras 3, reproduces (tape.watch rejects the symbolic KerasTensor: ValueError ... KerasTensor)
import tensorflow as tf
import keras

inputs = keras.Input((8,))
outputs = keras.layers.Dense(3)(inputs)
model = keras.Model(inputs, outputs)
loss_object = keras.losses.CategoricalCrossentropy(from_logits=True)


def create_adversarial_pattern(input_image, input_label):
    with tf.GradientTape() as tape:
        tape.watch(model.input)
        prediction = model(input_image)
        loss = loss_object(input_label, prediction)
    gradient = tape.gradient(loss, model.input)
    return tf.sign(gradient)


create_adversarial_pattern(tf.random.normal((2, 8)), tf.one_hot([0, 1], 3))
