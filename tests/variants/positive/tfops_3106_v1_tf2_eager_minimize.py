# source: variant of 3106_tf1_histogram_fixed_width_l2.py
# framework: tf
# family: B
# kind: nondiff-op-on-loss-path
# pitfall: an L2 loss between tf.histogram_fixed_width counts of two variables, minimized eagerly in TF2; the histogram op has no gradient, so the optimizer gets no gradient for any variable
# expect: line 16 — tf.histogram_fixed_width(input1, ...) on the trainable variable feeds the loss
# checked: ran, reproduces (ValueError: No gradients provided for any variable)
import tensorflow as tf

input1 = tf.Variable([1.0, 2.0, 3.0, 4.0, 5.0, 6.0], name="input1")
input2 = tf.Variable([2.0, 3.0, 4.0, 6.0, 8.0, 9.0], name="input2")
values_range = tf.constant([0.0, 10.0], dtype=tf.float32)


def loss_fn():
    source_hist = tf.histogram_fixed_width(input1, values_range, 11)
    template_hist = tf.histogram_fixed_width(input2, values_range, 11)
    source_hist = tf.cast(source_hist, tf.float32)
    template_hist = tf.cast(template_hist, tf.float32)
    return 2 * tf.nn.l2_loss(source_hist - template_hist)


opt = tf.keras.optimizers.Adam(0.001)
for i in range(10):
    with tf.GradientTape() as tape:
        loss = loss_fn()
    grads = tape.gradient(loss, [input1, input2])
    opt.apply_gradients(zip(grads, [input1, input2]))
