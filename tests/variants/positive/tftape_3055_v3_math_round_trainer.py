# source: variant of 3055_tf1_round_network_output_in_loss.py
# framework: tf
# family: B
# kind: tf-tape-conversion
# pitfall: the trainer quantises the generator output with tf.math.round before the L2 loss; Round has no gradient, so every generator variable gets None
# expect: line 19 — tf.math.round on the network output on the path to the loss (no gradient)
# checked: ran, reproduces (ValueError: No gradients provided for any variable)
import tensorflow as tf


class SRTrainer:
    def __init__(self, net):
        self.net = net
        self.opt = tf.keras.optimizers.Adam(1e-4)

    def step(self, lr_img, hr_img, scale):
        with tf.GradientTape() as tape:
            out = self.net(lr_img, training=True)
            quantised = tf.math.round(out * 255.0) / 255.0
            loss = tf.reduce_mean(tf.nn.l2_loss(quantised * scale - hr_img))
        grads = tape.gradient(loss, self.net.trainable_variables)
        self.opt.apply_gradients(zip(grads, self.net.trainable_variables))
        return loss


net = tf.keras.Sequential([tf.keras.Input((8, 8, 1)), tf.keras.layers.Conv2D(1, 3, padding="same")])
SRTrainer(net).step(tf.random.uniform((2, 8, 8, 1)), tf.random.uniform((2, 8, 8, 1)), 2.0)
