# source: https://www.tensorflow.org/api_docs/python/tf/nn/sigmoid_cross_entropy_with_logits
# family: E
# pitfall: TensorFlow custom training loop writes binary cross-entropy as log(sigmoid(z)) and log(1 - sigmoid(z)) on raw logits
# expect: line 16 — sigmoid saturates to exactly 0/1 in float32: log returns -inf and the gradients become NaN; use tf.nn.sigmoid_cross_entropy_with_logits

import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(64, activation="relu"), tf.keras.layers.Dense(1)])
opt = tf.keras.optimizers.Adam(1e-3)
x = tf.random.uniform((256, 20), maxval=255.0)  # raw, unnormalised pixel values
y = tf.cast(tf.random.uniform((256, 1)) > 0.5, tf.float32)

for step in range(100):
    with tf.GradientTape() as tape:
        z = model(x, training=True)
        loss = -tf.reduce_mean(y * tf.math.log(tf.sigmoid(z)) + (1.0 - y) * tf.math.log(1.0 - tf.sigmoid(z)))
    grads = tape.gradient(loss, model.trainable_variables)
    opt.apply_gradients(zip(grads, model.trainable_variables))
