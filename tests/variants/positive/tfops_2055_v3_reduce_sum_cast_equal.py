# source: variant of 2055_tf_custom_loss_count_nonzero_round.py
# framework: tf
# family: E
# kind: nondiff-op-on-loss-path
# pitfall: the loss counts misclassified samples with tf.reduce_sum(tf.cast(tf.not_equal(tf.round(pred), y), tf.float32)); round/compare have no gradient, so tape.gradient returns None for every weight
# expect: line 17 — the misclassification count built from rounded predictions
# checked: ran, reproduces (gradients [None, None])
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(1, activation="sigmoid")])
optimizer = tf.keras.optimizers.SGD(0.1)
x = tf.random.normal((8, 4))
y = tf.ones((8, 1))

with tf.GradientTape() as tape:
    pred = model(x)
    errors = tf.reduce_sum(tf.cast(tf.not_equal(tf.round(pred), y), tf.float32))
    loss = errors / tf.cast(tf.shape(y)[0], tf.float32)
grads = tape.gradient(loss, model.trainable_weights)
print(grads)  # [None, None]
