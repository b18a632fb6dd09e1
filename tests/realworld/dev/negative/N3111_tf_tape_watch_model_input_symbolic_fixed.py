# source: https://github.com/tensorflow/tensorflow/issues/36596
# framework: tf
# family: F
# kind: keras-symbolic-tensor
# pitfall: fixed version: differentiate w.r.t. the concrete value `v` actually passed to the model (watched explicitly), not `model.input`.
# expect: no finding
# checked: not run (TF not installed); the same comment concludes that differentiating w.r.t. `model.input` is unreasonable and the gradient must be taken w.r.t. what is fed to the model (the workaround the thread confirms); the exact fixed lines are written here, not quoted
import tensorflow as tf

# --- stubs (not in the thread): a functional model `model` and the Variable `v` it is called on ---
inp = tf.keras.Input(shape=(3,))
out = tf.keras.layers.Dense(1)(tf.keras.layers.Dense(8, activation='tanh')(inp))
model = tf.keras.Model(inp, out)
v = tf.Variable(tf.random.normal((5, 3)))
# --- end stubs ---

with tf.GradientTape() as tape:
    tape.watch(v)
    model_vals = model(v)
grad = tape.gradient(model_vals, v)
