# source: https://www.tensorflow.org/api_docs/python/tf/nn/sigmoid_cross_entropy_with_logits
# family: E
# negative: binary cross-entropy on raw logits with tf.nn.sigmoid_cross_entropy_with_logits; tf.sigmoid is used only for the reported accuracy
# mimics: log / sigmoid of logits inside a GradientTape loss
# expect: no finding

import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(64, activation="relu"), tf.keras.layers.Dense(1)])
opt = tf.keras.optimizers.Adam(1e-3)
x = tf.random.uniform((256, 20), maxval=255.0)  # raw, unnormalised pixel values
y = tf.cast(tf.random.uniform((256, 1)) > 0.5, tf.float32)

for step in range(100):
    with tf.GradientTape() as tape:
        z = model(x, training=True)
        loss = tf.reduce_mean(tf.nn.sigmoid_cross_entropy_with_logits(labels=y, logits=z))
    grads = tape.gradient(loss, model.trainable_variables)
    opt.apply_gradients(zip(grads, model.trainable_variables))
    acc = tf.reduce_mean(tf.cast(tf.equal(tf.round(tf.sigmoid(z)), y), tf.float32))
