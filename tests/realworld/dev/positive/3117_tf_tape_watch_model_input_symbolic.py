# source: https://github.com/tensorflow/tensorflow/issues/36596
# framework: tf
# family: F
# kind: keras-symbolic-tensor
# pitfall: the tape is asked to watch and differentiate w.r.t. `model.input`, the model's symbolic Keras input tensor, instead of the eager tensor actually fed to the model, so the gradient silently comes back None.
# expect: line 22 — tape.gradient(model_vals, model.input) with the symbolic Keras input as the source
# checked: not run (TF not installed); the thread says "feeding this variable into either `tape.watch` or `tape.gradient` fails silently ... this is why this value [None] is returned"
import tensorflow as tf

# --- stubs (not in the thread): a functional model `model` and the Variable `v` it is called on ---
inp = tf.keras.Input(shape=(3,))
out = tf.keras.layers.Dense(1)(tf.keras.layers.Dense(8, activation='tanh')(inp))
model = tf.keras.Model(inp, out)
v = tf.Variable(tf.random.normal((5, 3)))
# --- end stubs ---

# verbatim from kphawkins's comment (2020-03-17)
with tf.GradientTape() as tape:
    tape.watch(model.input)
    model_vals = model(v)
# the comment: "`tape.gradient(model_vals, model.input)` does not work like one would expect"
grad = tape.gradient(model_vals, model.input)
