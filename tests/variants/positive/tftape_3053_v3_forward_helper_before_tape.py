# source: variant of 3053_tf_vae_forward_outside_tape.py
# framework: tf
# family: B
# kind: tf-tape-scope
# pitfall: a helper runs the encoder/decoder forward pass and returns a dict; it is called before the GradientTape is opened, so the loss recorded inside the tape is computed from constants and all gradients are None
# expect: line 22 — the forward pass (forward(model, x)) is computed before the `with tf.GradientTape()` block
# checked: ran, reproduces (ValueError: No gradients provided for any variable)
import tensorflow as tf
import keras


def forward(model, x):
    recon = model(x, training=True)
    return {"recon": recon, "target": x}


def reconstruction_loss(out):
    return keras.ops.mean(keras.ops.square(out["target"] - out["recon"]))


def train_step(model, optimizer, x):
    out = forward(model, x)
    with tf.GradientTape() as tape:
        loss = reconstruction_loss(out)
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss


model = keras.Sequential([keras.Input((6,)), keras.layers.Dense(2), keras.layers.Dense(6)])
train_step(model, keras.optimizers.Adam(1e-3), tf.random.normal((8, 6)))
