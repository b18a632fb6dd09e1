# source: variant of 2022_tf_gradient_target_computed_after_tape.py
# framework: tf
# family: B
# kind: tf-tape-scope
# pitfall: the input is watched inside the tape, but the model is evaluated as the argument of tape.gradient after the block closed; nothing was recorded and the saliency gradient is None
# expect: line 18 — the target model(image) is computed in the gradient() call, outside the recording block
# checked: ran, reproduces (gradient None)
import tensorflow as tf
import keras

model = keras.Sequential([keras.Input((8,)), keras.layers.Dense(1)])


def saliency(model, image):
    image = tf.convert_to_tensor(image)
    with tf.GradientTape() as tape:
        tape.watch(image)
    return tape.gradient(model(image), image)


print(saliency(model, tf.random.normal((1, 8))))
